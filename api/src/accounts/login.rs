//! `login` with email and password, throttled by email and address together (see
//! [`super::throttle`]). An email with no account goes through exactly the same steps.

use super::{
    fields::{Email, Password},
    find_by_email,
    throttle::Throttle,
    two_factor::{self, SignInStep},
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
};

pub const SIGNED_IN: &str = "Logged in successfully";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LoginForm {
    pub email: Option<String>,
    pub password: Option<String>,
}

/// Signs in, or asks for the second factor when the account has two-factor on. An unknown
/// email and a wrong password give the same answers, in the same sequence, after the same work.
///
/// # Errors
/// Field errors; 401 'Invalid email or password'; 403 when the email is not verified (only
/// once the password is right); 429 while a throttle's delay runs; 503 when hashing is full.
#[tracing::instrument(skip_all)]
pub async fn login(ctx: &Context, form: LoginForm, client: &ClientInfo) -> Result<SignInStep> {
    let mut errors = FieldErrors::new();
    let email = errors.check("email", Email::parse(form.email.as_deref()));
    let password = errors.check("password", Password::parse_existing(form.password.as_deref()));
    let (Some(email), Some(password)) = (email, password) else {
        return Err(Error::Validation(errors));
    };
    let user = find_by_email(&ctx.db, &email).await?;
    let mut throttle = Throttle::new(ctx, &email, user.as_ref(), client);
    if let Err(err) = throttle.take(ctx).await {
        if matches!(err, Error::RateLimited { .. }) {
            Event::new(Kind::SignInThrottled, user.as_ref().map(|u| u.id), client)
                .record(&ctx.db)
                .await?;
        }
        return Err(err);
    }
    let hash = user.as_ref().and_then(|u| u.password_hash.as_deref());
    let proved = match ctx.passwords.verify(&password, hash).await {
        Ok(proved) => proved,
        Err(err) => {
            throttle.untried(ctx).await?;
            return Err(err);
        }
    };
    if !proved {
        Event::new(Kind::SignInFailed, user.as_ref().map(|u| u.id), client)
            .record(&ctx.db)
            .await?;
        return Err(Error::InvalidCredentials);
    }
    let Some(user) = user else {
        // The dummy hash never matches; this is unreachable in practice.
        return Err(Error::InvalidCredentials);
    };
    if user.two_factor_enabled {
        throttle.first_factor_passed(ctx).await?;
    } else {
        throttle.succeeded(ctx).await?;
    }
    super::ensure_can_sign_in(&user)?;
    if !user.email_verified {
        return Err(Error::EmailNotVerified);
    }
    two_factor::sign_in_or_challenge(ctx, user, "password", client).await
}
