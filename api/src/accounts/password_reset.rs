//! Forgot password (a mailed, single-use link) and reset (which ends every session).

use chrono::{Duration, Utc};
use entity::{
    password_reset_tokens,
    users::{self, AccountStatus},
};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set, sea_query::Expr,
};
use uuid::Uuid;

use super::{
    fields::{Email, Password},
    find_by_email, sessions, tokens,
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result},
    mail, rate_limit,
};

pub const RESET_TTL: Duration = Duration::minutes(30);
pub const REQUEST_WINDOW: Duration = Duration::minutes(15);
pub const MAX_REQUESTS: i32 = 5;
pub const LINK_SENT: &str = "If an account exists for this email, a reset link has been sent.";
pub const TOO_MANY_REQUESTS: &str = "Too many reset requests for this email. Please try again later.";

pub const RESET: &str = "Password reset successfully";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ForgotForm {
    pub email: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResetForm {
    pub password: Option<String>,
}

/// Mails a reset link when the account exists, and a note that there is none otherwise:
/// the answer, the limits and the work are the same either way.
///
/// # Errors
/// Field errors; 429 past five requests for one email in fifteen minutes.
#[tracing::instrument(skip_all)]
pub async fn forgot(ctx: &Context, form: ForgotForm, client: &ClientInfo) -> Result<()> {
    let request = link_request(ctx, form.email.as_deref(), TOO_MANY_REQUESTS).await?;
    let token = tokens::random_token();
    let now = Utc::now();
    let main = &ctx.config.platforms.main;
    let txn = crate::db::begin_write(&ctx.db).await?;
    match &request.account {
        Some(user) => {
            let link = format!("{main}/reset-password/{token}");
            let message = mail::password_reset(
                &ctx.config.app_name,
                &user.email,
                &user.name,
                &link,
                RESET_TTL.num_minutes(),
            );
            password_reset_tokens::ActiveModel {
                id: Set(Uuid::new_v4()),
                user_id: Set(user.id),
                token_hash: Set(tokens::sha256_hex(&token)),
                created_at: Set(now),
                expires_at: Set(now + RESET_TTL),
                used_at: Set(None),
            }
            .insert(&txn)
            .await?;
            mail::enqueue(&txn, message.about(user.id).secret_until(now + RESET_TTL)).await?;
            Event::new(Kind::ResetRequested, Some(user.id), client)
                .record(&txn)
                .await?;
        }
        None => note_no_account(ctx, &txn, &request, mail::LinkAsked::PasswordReset).await?,
    }
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(())
}

/// Who a mailed link (a reset link or a sign-in link) is for: the email, counted on the one
/// counter both kinds share, and its account when there is one that may sign in. The caller
/// then does the same work either way.
pub(super) struct LinkRequest {
    pub email: Email,
    pub account: Option<users::Model>,
    /// The address has an account, suspended: it is mailed nothing, neither a link nor the
    /// note that there is no account (which would be false).
    pub suspended: bool,
}

/// # Errors
/// A field error on `email`; 429 past five links of either kind for one email in fifteen
/// minutes, with `too_many` as its text.
pub(super) async fn link_request(
    ctx: &Context,
    email: Option<&str>,
    too_many: &'static str,
) -> Result<LinkRequest> {
    let email = Email::parse(email).map_err(|m| Error::field("email", m))?;
    // Per inbox: thirty aliases of one address share its five.
    let key = format!("forgot:{}", ctx.keys.keyed_hash(&[&email.mailbox()]));
    rate_limit::hit(&ctx.db, &key, REQUEST_WINDOW, MAX_REQUESTS, too_many).await?;
    let found = find_by_email(&ctx.db, &email).await?;
    let suspended = found
        .as_ref()
        .is_some_and(|user| user.status == AccountStatus::Suspended);
    let account = found.filter(|_| !suspended);
    Ok(LinkRequest {
        email,
        account,
        suspended,
    })
}

/// The answer to a link asked for an address with no account that may sign in, written in
/// `txn`: a note that leads to registration, so the person learns why no link came; for a
/// suspended account, the same work and no mail.
///
/// # Errors
/// On a database failure.
pub(super) async fn note_no_account(
    ctx: &Context,
    txn: &impl ConnectionTrait,
    request: &LinkRequest,
    asked: mail::LinkAsked,
) -> Result<()> {
    let register = format!("{}/register", ctx.config.platforms.main);
    let note = mail::no_account(&ctx.config.app_name, request.email.as_str(), &register, asked);
    if request.suspended {
        mail::enqueue_nothing(txn, note).await
    } else {
        mail::enqueue(txn, note).await
    }
}

/// Sets a new password with a link's token, once. Every session of the account ends, and
/// the email counts as verified, since the link proved the person reads it. Gives back the
/// account before and after.
///
/// # Errors
/// The reset password rule; 400 'Reset link is invalid'; 410 'Reset link has expired'.
#[tracing::instrument(skip_all)]
pub async fn reset(
    ctx: &Context,
    token: &str,
    form: ResetForm,
    client: &ClientInfo,
) -> Result<super::PasswordSet> {
    let password =
        Password::parse_reset(form.password.as_deref()).map_err(|m| Error::field("password", m))?;
    let invalid = || Error::ResetLinkInvalid;
    if token.is_empty() || token.len() > 256 {
        return Err(invalid());
    }
    let row = password_reset_tokens::Entity::find()
        .filter(password_reset_tokens::Column::TokenHash.eq(tokens::sha256_hex(token)))
        .one(&ctx.db)
        .await?
        .ok_or_else(invalid)?;
    if row.used_at.is_some() {
        return Err(invalid());
    }
    let now = Utc::now();
    if row.expires_at <= now {
        return Err(Error::ResetLinkExpired);
    }
    let user = users::Entity::find_by_id(row.user_id)
        .one(&ctx.db)
        .await?
        .ok_or_else(invalid)?;
    let password_hash = ctx.passwords.hash(&password).await?;

    let txn = crate::db::begin_write(&ctx.db).await?;
    let used = password_reset_tokens::Entity::update_many()
        .col_expr(password_reset_tokens::Column::UsedAt, Expr::value(Some(now)))
        .filter(password_reset_tokens::Column::Id.eq(row.id))
        .filter(password_reset_tokens::Column::UsedAt.is_null())
        .exec(&txn)
        .await?;
    if used.rows_affected == 0 {
        return Err(invalid());
    }
    // As it stands now: the hashing took a while, and a suspension may have committed.
    let user = super::locked(&txn, user.id).await?.ok_or_else(invalid)?;
    let was_verified = user.email_verified;
    let status = super::verified_status(user.status);
    let before = user.clone();
    let mut active: users::ActiveModel = user.into();
    active.password_hash = Set(Some(password_hash));
    active.email_verified = Set(true);
    active.status = Set(status);
    active.updated_at = Set(now);
    let user = active.update(&txn).await?;
    let ended = sessions::end_all(&txn, user.id, None).await?;
    if ended > 0 {
        Event::new(Kind::SessionsRevoked, Some(user.id), client)
            .detail(format!("{ended} ended by a password reset"))
            .record(&txn)
            .await?;
    }
    // The link verified the email: a verification code mailed before it must not sign in, and
    // every other link mailed before this one dies with it.
    super::forget_mailed_secrets(&txn, user.id, Some(row.id)).await?;
    // A second step won with the old password does not finish after it.
    super::two_factor::forget_challenges(&txn, user.id).await?;
    if !was_verified {
        super::forget_unproven(&txn, user.id, "a reset link", client).await?;
    }
    let forgot = format!("{}/forgot-password", ctx.config.platforms.main);
    let notice = mail::password_changed(&ctx.config.app_name, &user.email, &user.name, &forgot);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::PasswordReset, Some(user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(super::PasswordSet { before, after: user })
}
