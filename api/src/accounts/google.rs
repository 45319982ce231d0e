//! Sign-in and registration with a Google ID token.

use chrono::Utc;
use entity::users;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};

use super::{
    fields::{Email, MAX_NAME, Role},
    find_by_email,
    login::SUSPENDED,
    sessions::{self, SignedIn},
};
use crate::{
    error::{Error, Result, is_unique_violation},
    google::GoogleIdentity,
    state::AppState,
};

pub const NO_ACCOUNT: &str = "No account found for this Google email. Please register first.";

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "GoogleLoginInput")]
pub struct GoogleLoginForm {
    pub id_token: Option<String>,
}

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "GoogleRegisterInput")]
pub struct GoogleRegisterForm {
    pub id_token: Option<String>,
    /// career, campus or hire.
    pub role: Option<String>,
}

/// A Google sign-in, and whether it created the account.
pub struct GoogleSignIn {
    pub signed_in: SignedIn,
    pub created: bool,
}

async fn identity(state: &AppState, id_token: Option<&str>) -> Result<GoogleIdentity> {
    let token = id_token
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() < 8192)
        .ok_or_else(|| Error::Unauthenticated(crate::google::INVALID_TOKEN.to_owned()))?;
    state.google.verify(token).await
}

/// The account of this Google identity: by its `sub`, else by its verified email (which then
/// gets linked, since Google vouches for the address).
async fn existing(state: &AppState, who: &GoogleIdentity) -> Result<Option<users::Model>> {
    if let Some(user) = users::Entity::find()
        .filter(users::Column::GoogleSub.eq(&who.sub))
        .one(&state.db)
        .await?
    {
        return Ok(Some(user));
    }
    let Ok(email) = Email::parse(Some(&who.email)) else {
        return Ok(None);
    };
    let Some(user) = find_by_email(&state.db, &email).await? else {
        return Ok(None);
    };
    if user.google_sub.is_some() {
        // The email belongs to an account linked to another Google identity.
        return Ok(None);
    }
    let mut linked: users::ActiveModel = user.into();
    linked.google_sub = Set(Some(who.sub.clone()));
    Ok(Some(linked.update(&state.db).await?))
}

async fn sign_in(state: &AppState, user: users::Model, user_agent: Option<&str>) -> Result<SignedIn> {
    if user.status == "suspended" {
        return Err(Error::Forbidden(SUSPENDED.to_owned()));
    }
    let user = if user.email_verified && user.status == "active" {
        user
    } else {
        let mut verified: users::ActiveModel = user.into();
        verified.email_verified = Set(true);
        verified.status = Set("active".to_owned());
        verified.updated_at = Set(Utc::now());
        verified.update(&state.db).await?
    };
    sessions::start(state, &state.db, user, user_agent).await
}

/// # Errors
/// 401 'Invalid Google token'; 404 when no account has this identity or email.
pub async fn login(state: &AppState, form: GoogleLoginForm, user_agent: Option<&str>) -> Result<SignedIn> {
    let who = identity(state, form.id_token.as_deref()).await?;
    let user = existing(state, &who)
        .await?
        .ok_or_else(|| Error::NotFound(NO_ACCOUNT.to_owned()))?;
    sign_in(state, user, user_agent).await
}

/// Creates an active, verified account for the identity, or signs in when it exists.
///
/// # Errors
/// 401 'Invalid Google token'; 400 for a role other than career, campus or hire.
pub async fn register(
    state: &AppState,
    form: GoogleRegisterForm,
    user_agent: Option<&str>,
) -> Result<GoogleSignIn> {
    let role = Role::parse_selectable(form.role.as_deref()).map_err(|m| Error::field("role", m))?;
    let who = identity(state, form.id_token.as_deref()).await?;
    if let Some(user) = existing(state, &who).await? {
        return Ok(GoogleSignIn {
            signed_in: sign_in(state, user, user_agent).await?,
            created: false,
        });
    }
    let email = Email::parse(Some(&who.email))
        .map_err(|_| Error::Unauthenticated(crate::google::INVALID_TOKEN.to_owned()))?;
    let name = who
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| email.as_str().split('@').next().unwrap_or("User"))
        .chars()
        .take(MAX_NAME)
        .collect::<String>();
    let mut user = super::new_account(name, &email, role, true);
    user.google_sub = Set(Some(who.sub.clone()));
    let user = match user.insert(&state.db).await {
        Ok(user) => user,
        // The same person registering twice at once: the second becomes a sign-in.
        Err(err)
            if is_unique_violation(&err, "users_email_key", "users.email")
                || is_unique_violation(&err, "users_google_sub_key", "users.google_sub") =>
        {
            let user = existing(state, &who)
                .await?
                .ok_or_else(|| Error::NotFound(NO_ACCOUNT.to_owned()))?;
            return Ok(GoogleSignIn {
                signed_in: sign_in(state, user, user_agent).await?,
                created: false,
            });
        }
        Err(err) => return Err(err.into()),
    };
    tracing::info!(user_id = %user.id, "account registered with Google");
    let signed_in = sessions::start(state, &state.db, user, user_agent).await?;
    Ok(GoogleSignIn {
        signed_in,
        created: true,
    })
}
