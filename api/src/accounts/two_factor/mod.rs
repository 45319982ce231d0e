//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238: 30 s steps, six digits, one
//! step either side) and ten single-use recovery codes.
//!
//! Enrolment keeps the new secret beside the account until a first code confirms it. With
//! two-factor on, a proven password or Google identity earns a challenge instead of a
//! session: a random value handed to the client, stored as its hash, good for five minutes
//! and five wrong codes, used once. Codes are checked after the sign-in throttle has taken
//! its attempt, so guesses count as failed sign-ins; an accepted time step is remembered, so
//! a code works once even within its window.
//!
//! `challenge`: the second step of a sign-in; `enrolment`: turning it on and off;
//! `recovery`: the single-use recovery codes. What they share (reading a code, the
//! per-account cap) is here.

mod challenge;
mod enrolment;
mod recovery;

use chrono::{Duration, Utc};
use entity::{recovery_codes, two_factor_challenges, users};
use sea_orm::{ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, sea_query::Expr};
use totp_rs::{Builder, Secret, Totp};
use uuid::Uuid;

use super::sessions::SignedIn;
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result},
    mail,
    rate_limit::{self, Backoff, Taken},
};

pub use challenge::{complete, sign_in_or_challenge};
pub use enrolment::{confirm, disable, start};
pub use recovery::unused_recovery_codes;
use recovery::{RECOVERY_ALPHABET, recovery_hash};

pub const CHALLENGE_LIFETIME: Duration = Duration::minutes(5);
pub const MAX_WRONG_CODES: i32 = 5;
/// Wrong codes one account may take, from every address and challenge together: the tenth
/// in an hour closes the second step for an hour (and every one after that for another).
pub const ACCOUNT_CAP: Backoff = Backoff {
    free: 10,
    first: Duration::hours(1),
    max: Duration::hours(1),
    forget_after: Duration::hours(1),
};
pub const RECOVERY_CODES: usize = 10;

pub const CODE_REQUIRED_MESSAGE: &str = "Enter the code from your authenticator app";
pub const INVALID_CODE: &str = "Invalid code";
pub const CODE_REQUIRED: &str = "Code is required";
pub const CHALLENGE_REQUIRED: &str = "Challenge is required";
pub const TOO_MANY_CODES: &str = "Too many wrong codes. Please sign in again.";
pub const SECOND_STEP_CLOSED: &str =
    "Too many wrong codes for this account. Two-factor sign-in is paused; please try again in an hour.";
pub const ALREADY_ON: &str = "Two-factor sign-in is already on";
pub const NOT_ON: &str = "Two-factor sign-in is not on";
pub const NOT_STARTED: &str = "Start the two-factor setup first";
pub const ENABLED: &str = "Two-factor sign-in is on";
pub const DISABLED: &str = "Two-factor sign-in is off";
pub const WRONG_PASSWORD: &str = "Password is incorrect";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ChallengeForm {
    pub challenge: Option<String>,
    /// A six-digit code from the authenticator app, or an unused recovery code.
    pub code: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ConfirmForm {
    pub code: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DisableForm {
    /// Not needed by an account that has no password (made with Google).
    pub password: Option<String>,
    /// A code from the authenticator app, or an unused recovery code.
    pub code: Option<String>,
}

/// What a proven first factor earns.
#[derive(Debug)]
pub enum SignInStep {
    Done(Box<SignedIn>),
    /// Two-factor is on: the client must send a code with this challenge.
    TwoFactor {
        challenge: String,
    },
}

/// A started enrolment: the secret for the authenticator app, as text and as its URI.
#[derive(Debug)]
pub struct Enrolment {
    pub secret: String,
    pub otpauth_uri: String,
}

fn authenticator(secret_base32: &str, account: &str, issuer: &str) -> Result<Totp> {
    let secret = Secret::try_from_base32(secret_base32)
        .map_err(|err| Error::internal(anyhow::anyhow!("stored TOTP secret is not base32: {err}")))?;
    Builder::new()
        .with_secret(secret)
        .with_issuer(Some(issuer.replace(':', " ")))
        .with_account_name(account.replace(':', " "))
        .build()
        .map_err(|err| Error::internal(anyhow::anyhow!("TOTP settings refused: {err}")))
}

/// The time step a six-digit `code` belongs to, within one step of now.
fn matching_step(user: &users::Model, code: &str) -> Result<Option<i64>> {
    let Some(secret) = user.totp_secret.as_deref() else {
        return Ok(None);
    };
    let totp = authenticator(secret, "", "")?;
    let now = u64::try_from(Utc::now().timestamp()).unwrap_or_default();
    Ok(totp.check(code, now).and_then(|step| i64::try_from(step).ok()))
}

/// A code as people type it: spaces and dashes dropped, lowercased.
fn normalize(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_app_code(code: &str) -> bool {
    code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())
}

/// Uses up `code` for `user` if it is right: an authenticator code of a time step after the
/// last accepted one, or an unused recovery code. Both are claimed by one conditional
/// update, so two requests racing with the same code cannot both pass.
async fn redeem(
    ctx: &Context,
    db: &impl ConnectionTrait,
    user: &users::Model,
    code: &str,
) -> Result<Option<Redeemed>> {
    let code = normalize(code);
    if is_app_code(&code) {
        let Some(step) = matching_step(user, &code)? else {
            return Ok(None);
        };
        let claimed = users::Entity::update_many()
            .col_expr(users::Column::TotpLastStep, Expr::value(Some(step)))
            .filter(users::Column::Id.eq(user.id))
            .filter(
                Condition::any()
                    .add(users::Column::TotpLastStep.is_null())
                    .add(users::Column::TotpLastStep.lt(step)),
            )
            .exec(db)
            .await?;
        return Ok((claimed.rows_affected == 1).then_some(Redeemed::App));
    }
    if code.len() != 10 || !code.bytes().all(|b| RECOVERY_ALPHABET.contains(&b)) {
        return Ok(None);
    }
    let stored = format!("{}-{}", &code[..5], &code[5..]);
    let claimed = recovery_codes::Entity::update_many()
        .col_expr(recovery_codes::Column::UsedAt, Expr::value(Some(Utc::now())))
        .filter(recovery_codes::Column::UserId.eq(user.id))
        .filter(recovery_codes::Column::CodeHash.eq(recovery_hash(ctx, user.id, &stored)))
        .filter(recovery_codes::Column::UsedAt.is_null())
        .exec(db)
        .await?;
    Ok((claimed.rows_affected == 1).then_some(Redeemed::Recovery))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Redeemed {
    App,
    Recovery,
}

/// The per-account cap on wrong second-factor codes ([`ACCOUNT_CAP`]).
struct AccountCap {
    key: String,
}

impl AccountCap {
    fn new(ctx: &Context, user_id: Uuid) -> Self {
        Self {
            key: format!(
                "second-factor:{}",
                ctx.keys.keyed_hash(&["second-factor", &user_id.to_string()])
            ),
        }
    }

    /// Takes one attempt (atomically with the check), or refuses while the step is closed.
    async fn take(&self, ctx: &Context, user: &users::Model, client: &ClientInfo) -> Result<Taken> {
        let taken = rate_limit::take(&ctx.db, &self.key, ACCOUNT_CAP, false, SECOND_STEP_CLOSED).await;
        if let Err(Error::RateLimited { .. }) = &taken {
            Event::new(Kind::SignInThrottled, Some(user.id), client)
                .detail("two-factor step closed")
                .record(&ctx.db)
                .await?;
        }
        taken
    }

    /// The attempt was right (or never checked a code): it does not count.
    async fn give_back(&self, ctx: &Context) -> Result<()> {
        rate_limit::refund(&ctx.db, &self.key).await
    }

    /// The attempt was a wrong code. The one that closes the step tells the owner, who now
    /// knows that someone has their password.
    async fn wrong_code(
        &self,
        ctx: &Context,
        user: &users::Model,
        taken: Taken,
        client: &ClientInfo,
    ) -> Result<()> {
        if taken.failures != ACCOUNT_CAP.free {
            return Ok(());
        }
        // The owner cannot sign in for the hour either: the way to act now is a new password.
        let main = &ctx.config.platforms.main;
        let notice = mail::password_known(
            &ctx.config.app_name,
            &user.email,
            &user.name,
            taken.failures,
            &format!("{main}/forgot-password"),
            &format!("{main}/security"),
        );
        let txn = crate::db::begin_write(&ctx.db).await?;
        mail::enqueue(&txn, notice.about(user.id)).await?;
        Event::new(Kind::TwoFactorLocked, Some(user.id), client)
            .detail(format!("{} wrong codes", taken.failures))
            .record(&txn)
            .await?;
        txn.commit().await?;
        ctx.mail_ready.notify_one();
        Ok(())
    }
}

/// Checks a second-factor code for `user` outside sign-in (confirming it's them): the sign-in
/// throttle and the per-account cap, as sign-in's second step takes them, and the code is used
/// up when right. The cap alone opens again every hour; the email's throttle remembers a day of
/// failures, so a stolen session cannot guess ten codes an hour for as long as it lives.
///
/// # Errors
/// 429 while a throttle holds or the account's second step is closed; a database failure.
#[tracing::instrument(skip_all)]
pub async fn check_code(ctx: &Context, user: &users::Model, code: &str, client: &ClientInfo) -> Result<bool> {
    let mut throttle = super::throttle::Throttle::of_account(ctx, user, client)?;
    throttle.take(ctx).await?;
    let cap = AccountCap::new(ctx, user.id);
    let taken = cap.take(ctx, user, client).await?;
    if redeem(ctx, &ctx.db, user, code).await?.is_some() {
        cap.give_back(ctx).await?;
        throttle.succeeded(ctx).await?;
        return Ok(true);
    }
    cap.wrong_code(ctx, user, taken, client).await?;
    Ok(false)
}

/// Ends every pending second step of `user_id` (a new password was set: a challenge won with the
/// old one must not finish).
///
/// # Errors
/// On a database failure.
pub async fn forget_challenges(db: &impl ConnectionTrait, user_id: Uuid) -> Result<()> {
    two_factor_challenges::Entity::delete_many()
        .filter(two_factor_challenges::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Two-factor off for `user`: the secret, the recovery codes and any pending challenge go.
///
/// # Errors
/// On a database failure.
pub async fn turn_off(db: &impl ConnectionTrait, user: &users::Model) -> Result<()> {
    users::Entity::update_many()
        .col_expr(users::Column::TwoFactorEnabled, Expr::value(false))
        .col_expr(users::Column::TotpSecret, Expr::value(Option::<String>::None))
        .col_expr(users::Column::TotpLastStep, Expr::value(Option::<i64>::None))
        .col_expr(users::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(users::Column::Id.eq(user.id))
        .exec(db)
        .await?;
    recovery_codes::Entity::delete_many()
        .filter(recovery_codes::Column::UserId.eq(user.id))
        .exec(db)
        .await?;
    two_factor_challenges::Entity::delete_many()
        .filter(two_factor_challenges::Column::UserId.eq(user.id))
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{recovery::new_recovery_code, *};

    #[test]
    fn recovery_codes_are_ten_characters_of_the_plain_alphabet() {
        for _ in 0..100 {
            let code = new_recovery_code();
            assert_eq!(code.len(), 11);
            let bare = normalize(&code);
            assert_eq!(bare.len(), 10);
            assert!(bare.bytes().all(|b| RECOVERY_ALPHABET.contains(&b)));
        }
        assert_ne!(new_recovery_code(), new_recovery_code());
    }

    #[test]
    fn typed_codes_are_normalized() {
        assert_eq!(normalize(" 123 456 "), "123456");
        assert!(is_app_code(&normalize("123 456")));
        assert_eq!(normalize("ABCDE-fghjk"), "abcdefghjk");
        assert!(!is_app_code("12345a"));
    }

    #[test]
    fn a_code_matches_only_within_one_step() {
        let secret = Secret::from(vec![7u8; 20]).to_base32();
        let totp = authenticator(&secret, "a@example.com", "Talent Suite").unwrap();
        let now = 1_800_000_000u64;
        let code = totp.generate(now);
        let code = code.to_string();
        assert_eq!(totp.check(&code, now), Some(now / 30));
        assert!(totp.check(&code, now + 30).is_some());
        assert!(totp.check(&code, now + 90).is_none());
        assert!(
            totp.to_url()
                .unwrap()
                .starts_with("otpauth://totp/Talent%20Suite:a%40example.com?")
        );
    }
}
