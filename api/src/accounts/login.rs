//! `login` with email and password, with a lockout after repeated failures.

use chrono::{Duration, Utc};
use entity::users;
use sea_orm::{
    ColumnTrait, EntityTrait, QueryFilter,
    sea_query::{Expr, ExprTrait},
};

use super::{
    fields::{Email, Password},
    find_by_email,
    sessions::{self, SignedIn},
};
use crate::{
    error::{Error, FieldErrors, Result},
    state::AppState,
};

pub const INVALID_CREDENTIALS: &str = "Invalid email or password";
pub const SUSPENDED: &str = "This account has been suspended";
pub const LOCKED: &str = "Too many failed sign-in attempts. Please try again later.";
pub const MAX_FAILURES: i32 = 10;
pub const LOCKOUT: Duration = Duration::minutes(15);

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "LoginInput")]
pub struct LoginForm {
    pub email: Option<String>,
    pub password: Option<String>,
}

/// Signs in. An unknown email and a wrong password give the same answer after the same work.
///
/// # Errors
/// Field errors; 401 'Invalid email or password'; 403 when the email is not verified (only
/// once the password is right); 429 after ten consecutive failures, for fifteen minutes.
pub async fn login(state: &AppState, form: LoginForm, user_agent: Option<&str>) -> Result<SignedIn> {
    let mut errors = FieldErrors::new();
    let email = errors.check("email", Email::parse(form.email.as_deref()));
    let password = errors.check("password", Password::parse_existing(form.password.as_deref()));
    let (Some(email), Some(password)) = (email, password) else {
        return Err(Error::Validation(errors));
    };
    let invalid = || Error::Unauthenticated(INVALID_CREDENTIALS.to_owned());

    let Some(user) = find_by_email(&state.db, &email).await? else {
        state.passwords.verify(&password, None).await?;
        return Err(invalid());
    };
    let now = Utc::now();
    if let Some(until) = user.locked_until.filter(|until| *until > now) {
        return Err(Error::RateLimited {
            message: LOCKED.to_owned(),
            retry_after_secs: u64::try_from(std::cmp::max((until - now).num_seconds(), 1)).unwrap_or(1),
        });
    }
    if !state
        .passwords
        .verify(&password, user.password_hash.as_deref())
        .await?
    {
        record_failure(state, &user).await?;
        return Err(invalid());
    }
    if user.status == "suspended" {
        return Err(Error::Forbidden(SUSPENDED.to_owned()));
    }
    if user.failed_logins != 0 || user.locked_until.is_some() {
        users::Entity::update_many()
            .col_expr(users::Column::FailedLogins, Expr::value(0))
            .col_expr(
                users::Column::LockedUntil,
                Expr::value(Option::<chrono::DateTime<Utc>>::None),
            )
            .filter(users::Column::Id.eq(user.id))
            .exec(&state.db)
            .await?;
    }
    if !user.email_verified {
        return Err(Error::EmailNotVerified);
    }
    let signed_in = sessions::start(state, &state.db, user, user_agent).await?;
    tracing::info!(user_id = %signed_in.user.id, "signed in");
    Ok(signed_in)
}

async fn record_failure(state: &AppState, user: &users::Model) -> Result<()> {
    // A lock that has run out starts the count again.
    let expired_lock = user.locked_until.is_some();
    let count = if expired_lock {
        Expr::value(1)
    } else {
        Expr::col(users::Column::FailedLogins).add(1)
    };
    users::Entity::update_many()
        .col_expr(users::Column::FailedLogins, count)
        .col_expr(
            users::Column::LockedUntil,
            Expr::value(Option::<chrono::DateTime<Utc>>::None),
        )
        .filter(users::Column::Id.eq(user.id))
        .exec(&state.db)
        .await?;
    users::Entity::update_many()
        .col_expr(
            users::Column::LockedUntil,
            Expr::value(Some(Utc::now() + LOCKOUT)),
        )
        .filter(users::Column::Id.eq(user.id))
        .filter(users::Column::FailedLogins.gte(MAX_FAILURES))
        .exec(&state.db)
        .await?;
    tracing::info!(user_id = %user.id, "wrong password");
    Ok(())
}
