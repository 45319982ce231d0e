//! "Confirm it's you": the signed-in person proves again who they are (their password, or a
//! code from their authenticator) before a sensitive change; the session counts as freshly
//! signed in for [`RECENT_SIGN_IN`](super::sessions::RECENT_SIGN_IN).

use chrono::Utc;
use entity::sessions as session_rows;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};

use super::{fields::Password, sessions::Viewer, throttle::Throttle, two_factor};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
};

pub const CONFIRMED: &str = "Thanks, it's you";
pub const PASSWORD_OR_CODE: &str = "Enter your password or a code from your authenticator app";
pub const WRONG_PASSWORD: &str = "Password is incorrect";
pub const INVALID_CODE: &str = "Invalid code";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReauthenticateForm {
    /// The account's password (when it has one).
    pub password: Option<String>,
    /// A code from the authenticator app or an unused recovery code (when two-factor is on).
    pub code: Option<String>,
}

/// Marks the viewer's session as freshly signed in once the password or a second-factor code
/// is right. Wrong answers count like failed sign-ins (the same throttles and caps).
///
/// # Errors
/// Field errors ('Password is incorrect', 'Invalid code', or neither given); 429 while a
/// throttle holds; 503 when hashing is full.
#[tracing::instrument(skip_all)]
pub async fn reauthenticate(
    ctx: &Context,
    viewer: &Viewer,
    form: ReauthenticateForm,
    client: &ClientInfo,
) -> Result<()> {
    let user = &viewer.user;
    let password = form
        .password
        .as_deref()
        .filter(|p| !p.is_empty() && user.password_hash.is_some());
    let code = form
        .code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty() && c.len() <= 64 && user.two_factor_enabled);
    let how = if let Some(password) = password {
        let password = Password::parse_existing(Some(password)).map_err(|m| Error::field("password", m))?;
        let mut throttle = Throttle::of_account(ctx, user, client)?;
        throttle.take(ctx).await?;
        if !ctx
            .passwords
            .verify(&password, user.password_hash.as_deref())
            .await?
        {
            Event::new(Kind::SignInFailed, Some(user.id), client)
                .detail("wrong password on confirming it's you")
                .record(&ctx.db)
                .await?;
            return Err(Error::field("password", WRONG_PASSWORD));
        }
        throttle.succeeded(ctx).await?;
        "password"
    } else if let Some(code) = code {
        if !two_factor::check_code(ctx, user, code, client).await? {
            Event::new(Kind::SignInFailed, Some(user.id), client)
                .detail("wrong code on confirming it's you")
                .record(&ctx.db)
                .await?;
            return Err(Error::field("code", INVALID_CODE));
        }
        "second factor"
    } else {
        let mut errors = FieldErrors::new();
        errors.add(
            if user.password_hash.is_some() {
                "password"
            } else {
                "code"
            },
            PASSWORD_OR_CODE,
        );
        return Err(Error::Validation(errors));
    };
    session_rows::Entity::update_many()
        .col_expr(
            session_rows::Column::AuthenticatedAt,
            Expr::value(Some(Utc::now())),
        )
        .filter(session_rows::Column::Id.eq(viewer.session_id))
        .exec(&ctx.db)
        .await?;
    Event::new(Kind::Reauthenticated, Some(user.id), client)
        .detail(how)
        .record(&ctx.db)
        .await
}
