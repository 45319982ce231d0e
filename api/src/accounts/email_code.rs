//! Email verification by one-time code: send (with a cooldown) and verify (with a try limit).

use chrono::{Duration, Utc};
use entity::{email_codes, users};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set, TransactionTrait,
    sea_query::{Expr, ExprTrait},
};
use uuid::Uuid;

use super::{
    fields::{Email, OtpInput},
    find_by_email,
    sessions::{self, SignedIn},
    tokens,
};
use crate::{
    error::{Error, FieldErrors, Result},
    mail, rate_limit,
    state::AppState,
};

pub const CODE_TTL: Duration = Duration::minutes(10);
pub const RESEND_COOLDOWN: Duration = Duration::seconds(60);
pub const MAX_TRIES: i32 = 5;
pub const INVALID_OTP: &str = "Invalid OTP";
pub const OTP_EXPIRED: &str = "OTP expired. Please request a new one.";
pub const TOO_MANY_TRIES: &str = "Too many wrong codes. Please request a new one.";
pub const COOLDOWN: &str = "Please wait before requesting another code.";

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "SendOtpEmailInput")]
pub struct SendCodeForm {
    pub email: Option<String>,
}

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "VerifyOtpEmailInput")]
pub struct VerifyCodeForm {
    pub email: Option<String>,
    pub otp: Option<String>,
}

/// Mails a fresh code to an account waiting for verification; a new code replaces the old.
/// Unknown and already verified emails get the same answer and no mail.
///
/// # Errors
/// Field errors; 429 within 60 s of the previous request for the same email.
pub async fn send(state: &AppState, form: SendCodeForm) -> Result<()> {
    let email = Email::parse(form.email.as_deref()).map_err(|m| Error::field("email", m))?;
    // The cooldown is kept per email, known or not, so it reveals nothing either.
    let key = format!("otp-send:{}", state.keys.keyed_hash(&[email.as_str()]));
    rate_limit::hit(&state.db, &key, RESEND_COOLDOWN, 1, COOLDOWN).await?;

    let Some(user) = find_by_email(&state.db, &email).await? else {
        return Ok(());
    };
    if user.email_verified || user.status == "suspended" {
        return Ok(());
    }
    let code = tokens::six_digit_code();
    let now = Utc::now();
    let row = email_codes::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        code_hash: Set(code_hash(state, user.id, &code)),
        attempts: Set(0),
        created_at: Set(now),
        expires_at: Set(now + CODE_TTL),
    };
    let message = mail::verification_code(
        &state.config.app_name,
        &user.email,
        &user.name,
        &code,
        CODE_TTL.num_minutes(),
    );
    let txn = state.db.begin().await?;
    email_codes::Entity::delete_many()
        .filter(email_codes::Column::UserId.eq(user.id))
        .exec(&txn)
        .await?;
    row.insert(&txn).await?;
    mail::enqueue(&txn, message).await?;
    txn.commit().await?;
    state.mail_ready.notify_one();
    Ok(())
}

/// Checks the code; the right one verifies the email, activates the account and signs in.
///
/// # Errors
/// Field errors; 400 'Invalid OTP'; 410 when expired; 429 once five wrong tries killed it.
pub async fn verify(state: &AppState, form: VerifyCodeForm, user_agent: Option<&str>) -> Result<SignedIn> {
    let mut errors = FieldErrors::new();
    let email = errors.check("email", Email::parse(form.email.as_deref()));
    let otp = errors.check("otp", OtpInput::parse(form.otp.as_deref()));
    let (Some(email), Some(otp)) = (email, otp) else {
        return Err(Error::Validation(errors));
    };
    let invalid = || Error::field("otp", INVALID_OTP);

    let user = find_by_email(&state.db, &email).await?.ok_or_else(invalid)?;
    let code = email_codes::Entity::find()
        .filter(email_codes::Column::UserId.eq(user.id))
        .one(&state.db)
        .await?
        .ok_or_else(invalid)?;
    if code.expires_at <= Utc::now() {
        return Err(Error::Expired(OTP_EXPIRED.to_owned()));
    }
    // Take a try before comparing, atomically, so parallel guesses cannot exceed the limit.
    let took_try = email_codes::Entity::update_many()
        .col_expr(
            email_codes::Column::Attempts,
            Expr::col(email_codes::Column::Attempts).add(1),
        )
        .filter(email_codes::Column::Id.eq(code.id))
        .filter(email_codes::Column::Attempts.lt(MAX_TRIES))
        .exec(&state.db)
        .await?;
    if took_try.rows_affected == 0 {
        return Err(Error::RateLimited {
            message: TOO_MANY_TRIES.to_owned(),
            retry_after_secs: u64::try_from(RESEND_COOLDOWN.num_seconds()).unwrap_or(60),
        });
    }
    if !tokens::same(&code.code_hash, &code_hash(state, user.id, otp.as_str())) {
        return Err(invalid());
    }

    let txn = state.db.begin().await?;
    let consumed = email_codes::Entity::delete_by_id(code.id).exec(&txn).await?;
    if consumed.rows_affected == 0 {
        // Another request used this code a moment ago.
        return Err(invalid());
    }
    let status = if user.status == "suspended" {
        "suspended"
    } else {
        "active"
    };
    let mut active: users::ActiveModel = user.into();
    active.email_verified = Set(true);
    active.status = Set(status.to_owned());
    active.updated_at = Set(Utc::now());
    let user = active.update(&txn).await?;
    if user.status == "suspended" {
        txn.commit().await?;
        return Err(Error::Forbidden(super::login::SUSPENDED.to_owned()));
    }
    let signed_in = sessions::start(state, &txn, user, user_agent).await?;
    txn.commit().await?;
    tracing::info!(user_id = %signed_in.user.id, "email verified");
    Ok(signed_in)
}

fn code_hash(state: &AppState, user_id: Uuid, code: &str) -> String {
    state.keys.keyed_hash(&["email-code", &user_id.to_string(), code])
}
