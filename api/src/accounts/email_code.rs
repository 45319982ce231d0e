//! Email verification by one-time code: send (with a cooldown and hourly and daily caps) and
//! verify (with a try limit per code, and one per email across every code it was sent).

use chrono::{Duration, Utc};
use entity::{
    email_codes,
    users::{self, AccountStatus},
};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set,
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
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    mail,
    rate_limit::{self, Backoff},
};

pub const CODE_TTL: Duration = Duration::minutes(10);
pub const RESEND_COOLDOWN: Duration = Duration::seconds(60);
/// Wrong tries for one code before it dies.
pub const MAX_TRIES: i32 = 5;
/// Codes mailed to one address per hour and per day.
pub const MAX_PER_HOUR: i32 = 5;
pub const MAX_PER_DAY: i32 = 10;
/// Wrong codes for one email across every code it was sent: ten a day, then a growing wait,
/// so resending cannot turn five tries into a day of guessing.
pub const WRONG_CODES: Backoff = Backoff {
    free: 10,
    first: Duration::hours(1),
    max: Duration::hours(24),
    forget_after: Duration::days(1),
};
pub const INVALID_OTP: &str = "Invalid OTP";
pub const TOO_MANY_TRIES: &str = "Too many wrong codes. Please request a new one.";
pub const TOO_MANY_WRONG: &str = "Too many wrong codes for this email. Please try again later.";
pub const COOLDOWN: &str = "Please wait before requesting another code.";
pub const TOO_MANY_CODES: &str = "Too many codes requested for this email. Please try again later.";

pub const CODE_SENT: &str = "OTP sent to your email";
pub const VERIFIED: &str = "Email verified successfully!";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SendCodeForm {
    pub email: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VerifyCodeForm {
    pub email: Option<String>,
    pub otp: Option<String>,
}

/// Mails a fresh code to an account waiting for verification; a new code replaces the old.
/// Unknown and already verified emails get the same answer, the same limits and the same
/// work, and no mail.
///
/// # Errors
/// Field errors; 429 within 60 s of the previous request for the same email, or past five
/// codes an hour or ten a day.
#[tracing::instrument(skip_all)]
pub async fn send(ctx: &Context, form: SendCodeForm, client: &ClientInfo) -> Result<()> {
    send_by(ctx, form, client, None).await
}

/// [`send`], at the request of `actor` (an admin) when not of the person themself: the audit
/// event names them.
///
/// # Errors
/// As [`send`].
pub async fn send_by(
    ctx: &Context,
    form: SendCodeForm,
    client: &ClientInfo,
    actor: Option<Uuid>,
) -> Result<()> {
    let email = Email::parse(form.email.as_deref()).map_err(|m| Error::field("email", m))?;
    // Kept for every email, known or not, so the limits reveal nothing either: the cooldown
    // per address (one account's resend), the hour's and the day's per inbox, so thirty
    // aliases of one address share its five an hour.
    let (address, inbox) = (
        ctx.keys.keyed_hash(&[email.as_str()]),
        ctx.keys.keyed_hash(&[&email.mailbox()]),
    );
    let (cooldown, hour, day) = (
        format!("otp-send:{address}"),
        format!("otp-hour:{inbox}"),
        format!("otp-day:{inbox}"),
    );
    rate_limit::hit_all(
        &ctx.db,
        &[
            (&cooldown, RESEND_COOLDOWN, 1, COOLDOWN),
            (&hour, Duration::hours(1), MAX_PER_HOUR, TOO_MANY_CODES),
            (&day, Duration::days(1), MAX_PER_DAY, TOO_MANY_CODES),
        ],
    )
    .await?;

    let user = find_by_email(&ctx.db, &email).await?;
    let waiting = user
        .as_ref()
        .filter(|u| !u.email_verified && u.status != AccountStatus::Suspended);
    let code = tokens::six_digit_code();
    let now = Utc::now();
    let name = waiting.map_or("", |u| u.name.as_str());
    let message = mail::verification_code(
        &ctx.config.app_name,
        email.as_str(),
        name,
        &code,
        CODE_TTL.num_minutes(),
    )
    .secret_until(now + CODE_TTL);
    let txn = crate::db::begin_write(&ctx.db).await?;
    if let Some(user) = waiting {
        email_codes::Entity::delete_many()
            .filter(email_codes::Column::UserId.eq(user.id))
            .exec(&txn)
            .await?;
        email_codes::ActiveModel {
            id: Set(Uuid::new_v4()),
            user_id: Set(user.id),
            code_hash: Set(code_hash(ctx, user.id, &code)),
            attempts: Set(0),
            created_at: Set(now),
            expires_at: Set(now + CODE_TTL),
        }
        .insert(&txn)
        .await?;
        mail::enqueue(&txn, message.about(user.id)).await?;
        let mut event = Event::new(Kind::CodeSent, Some(user.id), client);
        if let Some(actor) = actor {
            event = event.by(actor);
        }
        event.record(&txn).await?;
    } else {
        // The code nobody gets still has its five tries, so running out of them answers as
        // it does for a pending account.
        rate_limit::open(&txn, &unsent_code_key(ctx, &email)).await?;
        mail::enqueue_nothing(&txn, message).await?;
    }
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(())
}

/// The tries of the code an email with no account waiting was "sent".
fn unsent_code_key(ctx: &Context, email: &Email) -> String {
    format!(
        "otp-unsent:{}",
        ctx.keys.keyed_hash(&["otp-unsent", email.as_str()])
    )
}

fn too_many_tries() -> Error {
    Error::RateLimited {
        message: TOO_MANY_TRIES.to_owned(),
        retry_after_secs: u64::try_from(RESEND_COOLDOWN.num_seconds()).unwrap_or(60),
    }
}

/// Checks the code; the right one verifies the email, activates the account and signs in.
///
/// # Errors
/// Field errors; 400 'Invalid OTP'; 410 when expired; 429 once five wrong tries killed the
/// code, or after ten wrong codes for the email in a day.
#[tracing::instrument(skip_all)]
pub async fn verify(ctx: &Context, form: VerifyCodeForm, client: &ClientInfo) -> Result<SignedIn> {
    let mut errors = FieldErrors::new();
    let email = errors.check("email", Email::parse(form.email.as_deref()));
    let otp = errors.check("otp", OtpInput::parse(form.otp.as_deref()));
    let (Some(email), Some(otp)) = (email, otp) else {
        return Err(Error::Validation(errors));
    };
    let invalid = || Error::field("otp", INVALID_OTP);

    // The email's wrong codes across every code it was sent, taken before anything is
    // compared, for every email, known or not.
    let wrong_key = format!(
        "otp-wrong:{}",
        ctx.keys.keyed_hash(&["otp-wrong", email.as_str()])
    );
    let take_wrong = || rate_limit::take(&ctx.db, &wrong_key, WRONG_CODES, false, TOO_MANY_WRONG);

    // A verified account signs in through its own door (password, Google, two-factor): a
    // code left over from before it was verified opens nothing.
    let code = match find_by_email(&ctx.db, &email)
        .await?
        .filter(|user| !user.email_verified)
    {
        Some(user) => email_codes::Entity::find()
            .filter(email_codes::Column::UserId.eq(user.id))
            .one(&ctx.db)
            .await?
            .map(|code| (user, code)),
        None => None,
    };
    let Some((user, code)) = code else {
        // As a code's own tries below, for the code an email without one was "sent".
        let unsent = unsent_code_key(ctx, &email);
        let counted =
            rate_limit::hit_while_open(&ctx.db, &unsent, CODE_TTL, MAX_TRIES, too_many_tries).await?;
        if let Err(refused) = take_wrong().await {
            if counted {
                rate_limit::unhit(&ctx.db, &unsent).await?;
            }
            return Err(refused);
        }
        return Err(invalid());
    };
    if code.expires_at <= Utc::now() {
        take_wrong().await?;
        // Only the code that was sent is told it expired: any other is wrong, as it is for
        // an email with no account (a guess once told a pending account by its 410).
        return Err(
            if tokens::same(&code.code_hash, &code_hash(ctx, user.id, otp.as_str())) {
                Error::CodeExpired
            } else {
                invalid()
            },
        );
    }
    // The code's own try first, atomically, so parallel guesses cannot exceed its five; a
    // guess it refuses (the code is dead) compares nothing and is no wrong code for the email.
    let took_try = email_codes::Entity::update_many()
        .col_expr(
            email_codes::Column::Attempts,
            Expr::col(email_codes::Column::Attempts).add(1),
        )
        .filter(email_codes::Column::Id.eq(code.id))
        .filter(email_codes::Column::Attempts.lt(MAX_TRIES))
        .exec(&ctx.db)
        .await?;
    if took_try.rows_affected == 0 {
        return Err(too_many_tries());
    }
    if let Err(refused) = take_wrong().await {
        // The email is blocked: this guess compared nothing, so the code keeps its try.
        email_codes::Entity::update_many()
            .col_expr(
                email_codes::Column::Attempts,
                Expr::col(email_codes::Column::Attempts).sub(1),
            )
            .filter(email_codes::Column::Id.eq(code.id))
            .filter(email_codes::Column::Attempts.gt(0))
            .exec(&ctx.db)
            .await?;
        return Err(refused);
    }
    if !tokens::same(&code.code_hash, &code_hash(ctx, user.id, otp.as_str())) {
        Event::new(Kind::CodeFailed, Some(user.id), client)
            .record(&ctx.db)
            .await?;
        return Err(invalid());
    }

    let txn = crate::db::begin_write(&ctx.db).await?;
    let consumed = email_codes::Entity::delete_by_id(code.id).exec(&txn).await?;
    if consumed.rows_affected == 0 {
        // Another request used this code a moment ago.
        return Err(invalid());
    }
    // Verified in one step with the check, so a reset that verified the account meanwhile
    // (and two-factor turned on after it) cannot be skipped by this code.
    let verified = users::Entity::update_many()
        .col_expr(users::Column::EmailVerified, Expr::value(true))
        .filter(users::Column::Id.eq(user.id))
        .filter(users::Column::EmailVerified.eq(false))
        .exec(&txn)
        .await?;
    if verified.rows_affected == 0 {
        return Err(invalid());
    }
    // As it stands now (a suspension may have committed since it was first read).
    let user = super::locked(&txn, user.id).await?.ok_or_else(invalid)?;
    let status = super::verified_status(user.status);
    let mut active: users::ActiveModel = user.into();
    active.email_verified = Set(true);
    active.status = Set(status);
    active.updated_at = Set(Utc::now());
    let user = active.update(&txn).await?;
    rate_limit::clear(&txn, &wrong_key).await?;
    if let Err(suspended) = super::ensure_can_sign_in(&user) {
        txn.commit().await?;
        return Err(suspended);
    }
    Event::new(Kind::EmailVerified, Some(user.id), client)
        .record(&txn)
        .await?;
    let signed_in = sessions::start(ctx, &txn, user, client).await?;
    txn.commit().await?;
    Ok(signed_in)
}

fn code_hash(ctx: &Context, user_id: Uuid, code: &str) -> String {
    ctx.keys.keyed_hash(&["email-code", &user_id.to_string(), code])
}
