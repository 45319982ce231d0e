//! `register`: a new account, pending until its email is verified.

use entity::users;
use sea_orm::{ActiveModelTrait, Set};

use super::fields::{CountryCode, Email, Name, Password, Phone, Role};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result, is_unique_violation},
};

pub const REGISTERED: &str = "Registered successfully";

/// What the register screen sends, unchecked.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RegisterForm {
    pub name: Option<String>,
    pub email: Option<String>,
    pub country_code: Option<String>,
    /// The country code joined with the digits, or the digits alone.
    pub phone: Option<String>,
    pub password: Option<String>,
    /// career, campus or hire.
    pub role: Option<String>,
}

/// Creates the account with status `pending`. It mails nothing: the site asks for a code next.
///
/// # Errors
/// Field errors with SPEC.md's texts; 409 when the email is taken (the unique index decides,
/// so two simultaneous registrations give one account and one conflict).
#[tracing::instrument(skip_all)]
pub async fn register(ctx: &Context, form: RegisterForm, client: &ClientInfo) -> Result<users::Model> {
    let mut errors = FieldErrors::new();
    let role = Role::parse_selectable(form.role.as_deref());
    let label = role
        .as_ref()
        .map_or(Role::Career.name_label(), |r| r.name_label());
    let name = errors.check("name", Name::parse(form.name.as_deref(), label));
    let email = errors.check("email", Email::parse(form.email.as_deref()));
    let code = errors.check("countryCode", CountryCode::parse(form.country_code.as_deref()));
    let phone = errors.check("phone", Phone::parse(form.phone.as_deref(), code.as_ref()));
    let password = errors.check("password", Password::parse_new(form.password.as_deref()));
    let role = errors.check("role", role);
    let (Some(name), Some(email), Some(code), Some(phone), Some(password), Some(role)) =
        (name, email, code, phone, password, role)
    else {
        return Err(Error::Validation(errors));
    };

    let password_hash = ctx.passwords.hash(&password).await?;
    let mut user = super::new_account(name.into_inner(), &email, role, false);
    user.country_code = Set(code.as_str().to_owned());
    user.phone = Set(phone.into_inner());
    user.password_hash = Set(Some(password_hash));
    // The account and its audit record commit together: a crash leaves both or neither.
    let txn = crate::db::begin_write(&ctx.db).await?;
    match user.insert(&txn).await {
        Ok(user) => {
            Event::new(Kind::Registered, Some(user.id), client)
                .detail(user.role.as_str())
                .record(&txn)
                .await?;
            txn.commit().await?;
            Ok(user)
        }
        Err(err) if is_unique_violation(&err, "users_email_key", "users.email") => Err(Error::EmailTaken),
        Err(err) => Err(err.into()),
    }
}
