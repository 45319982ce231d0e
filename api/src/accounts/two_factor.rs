//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238: 30 s steps, six digits, one
//! step either side) and ten single-use recovery codes.
//!
//! Enrolment keeps the new secret beside the account until a first code confirms it. With
//! two-factor on, a proven password or Google identity earns a challenge instead of a
//! session: a random value handed to the client, stored as its hash, good for five minutes
//! and five wrong codes, used once. Codes are checked after the sign-in throttle has taken
//! its attempt, so guesses count as failed sign-ins; an accepted time step is remembered, so
//! a code works once even within its window.

use chrono::{Duration, Utc};
use entity::{recovery_codes, two_factor_challenges, users};
use rand::{Rng, RngCore, rngs::OsRng};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set,
    TransactionTrait, sea_query::Expr,
};
use totp_rs::{Builder, Secret, Totp};
use uuid::Uuid;

use super::{
    fields::{Email, Password},
    login::Throttle,
    sessions::{self, SignedIn, Viewer},
    tokens,
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    error::{Error, FieldErrors, Result},
    mail,
    rate_limit::{self, Backoff, Taken},
    state::AppState,
};

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
pub const CHALLENGE_EXPIRED: &str = "This sign-in has expired. Please sign in again.";
pub const TOO_MANY_CODES: &str = "Too many wrong codes. Please sign in again.";
pub const SECOND_STEP_CLOSED: &str =
    "Too many wrong codes for this account. Two-factor sign-in is paused; please try again in an hour.";
pub const ALREADY_ON: &str = "Two-factor sign-in is already on";
pub const NOT_ON: &str = "Two-factor sign-in is not on";
pub const NOT_STARTED: &str = "Start the two-factor setup first";
pub const ENABLED: &str = "Two-factor sign-in is on";
pub const DISABLED: &str = "Two-factor sign-in is off";
pub const WRONG_PASSWORD: &str = "Password is incorrect";

/// Recovery codes avoid characters that are easy to misread (0/o, 1/l/i).
const RECOVERY_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "TwoFactorLoginInput")]
pub struct ChallengeForm {
    pub challenge: Option<String>,
    /// A six-digit code from the authenticator app, or an unused recovery code.
    pub code: Option<String>,
}

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "ConfirmTwoFactorInput")]
pub struct ConfirmForm {
    pub code: Option<String>,
}

#[derive(Debug, Default, async_graphql::InputObject)]
#[graphql(name = "DisableTwoFactorInput")]
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

fn recovery_hash(state: &AppState, user_id: Uuid, code: &str) -> String {
    state
        .keys
        .keyed_hash(&["recovery-code", &user_id.to_string(), code])
}

fn new_recovery_code() -> String {
    let mut rng = OsRng;
    let mut half = || -> String {
        (0..5)
            .map(|_| char::from(RECOVERY_ALPHABET[rng.gen_range(0..RECOVERY_ALPHABET.len())]))
            .collect()
    };
    format!("{}-{}", half(), half())
}

/// Uses up `code` for `user` if it is right: an authenticator code of a time step after the
/// last accepted one, or an unused recovery code. Both are claimed by one conditional
/// update, so two requests racing with the same code cannot both pass.
async fn redeem(
    state: &AppState,
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
        .filter(recovery_codes::Column::CodeHash.eq(recovery_hash(state, user.id, &stored)))
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
    fn new(state: &AppState, user_id: Uuid) -> Self {
        Self {
            key: format!(
                "second-factor:{}",
                state.keys.keyed_hash(&["second-factor", &user_id.to_string()])
            ),
        }
    }

    /// Takes one attempt (atomically with the check), or refuses while the step is closed.
    async fn take(&self, state: &AppState, user: &users::Model, client: &ClientInfo) -> Result<Taken> {
        let taken = rate_limit::take(&state.db, &self.key, ACCOUNT_CAP, false, SECOND_STEP_CLOSED).await;
        if let Err(Error::RateLimited { .. }) = &taken {
            Event::new(Kind::SignInThrottled, Some(user.id), client)
                .detail("two-factor step closed")
                .record(&state.db)
                .await?;
        }
        taken
    }

    /// The attempt was right (or never checked a code): it does not count.
    async fn give_back(&self, state: &AppState) -> Result<()> {
        rate_limit::refund(&state.db, &self.key).await
    }

    /// The attempt was a wrong code. The one that closes the step tells the owner, who now
    /// knows that someone has their password.
    async fn wrong_code(
        &self,
        state: &AppState,
        user: &users::Model,
        taken: Taken,
        client: &ClientInfo,
    ) -> Result<()> {
        if taken.failures != ACCOUNT_CAP.free {
            return Ok(());
        }
        let link = format!("{}/security", state.config.platforms.main);
        let notice = mail::password_known(
            &state.config.app_name,
            &user.email,
            &user.name,
            taken.failures,
            &link,
        );
        let txn = state.db.begin().await?;
        mail::enqueue(&txn, notice.about(user.id)).await?;
        Event::new(Kind::TwoFactorLocked, Some(user.id), client)
            .detail(format!("{} wrong codes", taken.failures))
            .record(&txn)
            .await?;
        txn.commit().await?;
        state.mail_ready.notify_one();
        Ok(())
    }
}

/// A session for `user`, or a challenge when two-factor is on. `method` says how the first
/// factor was proven ("password" or "google").
///
/// # Errors
/// On a database failure.
pub async fn sign_in_or_challenge(
    state: &AppState,
    user: users::Model,
    method: &'static str,
    client: &ClientInfo,
) -> Result<SignInStep> {
    if !user.two_factor_enabled {
        let signed_in = sessions::start(state, &state.db, user, client).await?;
        Event::new(Kind::SignIn, Some(signed_in.user.id), client)
            .detail(method)
            .record(&state.db)
            .await?;
        return Ok(SignInStep::Done(Box::new(signed_in)));
    }
    let challenge = tokens::random_token();
    let now = Utc::now();
    two_factor_challenges::ActiveModel {
        token_hash: Set(tokens::sha256_hex(&challenge)),
        user_id: Set(user.id),
        method: Set(method.to_owned()),
        failures: Set(0),
        created_at: Set(now),
        expires_at: Set(now + CHALLENGE_LIFETIME),
    }
    .insert(&state.db)
    .await?;
    Event::new(Kind::TwoFactorChallenged, Some(user.id), client)
        .detail(method)
        .record(&state.db)
        .await?;
    Ok(SignInStep::TwoFactor { challenge })
}

/// Completes a sign-in with the challenge and a code.
///
/// # Errors
/// Field errors; 400 'Invalid code'; 410 for an unknown, used or expired challenge; 429 after
/// five wrong codes for the challenge, or while the sign-in throttle holds; 403 for an account
/// suspended meanwhile.
pub async fn complete(state: &AppState, form: ChallengeForm, client: &ClientInfo) -> Result<SignedIn> {
    let mut errors = FieldErrors::new();
    let challenge = form.challenge.as_deref().map(str::trim).filter(|c| !c.is_empty());
    let code = form.code.as_deref().map(str::trim).filter(|c| !c.is_empty());
    if challenge.is_none() {
        errors.add("challenge", CHALLENGE_REQUIRED);
    }
    if code.is_none() {
        errors.add("code", CODE_REQUIRED);
    }
    let (Some(challenge), Some(code)) = (challenge, code) else {
        return Err(Error::Validation(errors));
    };
    let expired = || Error::Expired(CHALLENGE_EXPIRED.to_owned());
    if challenge.len() > 128 || code.len() > 64 {
        return Err(expired());
    }
    let key = tokens::sha256_hex(challenge);
    let (pending, user) = two_factor_challenges::Entity::find_by_id(key.clone())
        .find_also_related(users::Entity)
        .one(&state.db)
        .await?
        .ok_or_else(expired)?;
    let user = user.ok_or_else(expired)?;
    if pending.expires_at <= Utc::now() {
        return Err(expired());
    }
    if pending.failures >= MAX_WRONG_CODES {
        return Err(Error::RateLimited {
            message: TOO_MANY_CODES.to_owned(),
            retry_after_secs: u64::try_from((pending.expires_at - Utc::now()).num_seconds().max(1))
                .unwrap_or(1),
        });
    }
    // The account's cap first: however many addresses and challenges a guesser uses, the
    // account's wrong codes are counted in one place.
    let cap = AccountCap::new(state, user.id);
    let taken = cap.take(state, &user, client).await?;
    // The challenge's own limit, claimed in the same statement that checks it, so parallel
    // requests cannot pass it.
    let claimed = two_factor_challenges::Entity::update_many()
        .col_expr(
            two_factor_challenges::Column::Failures,
            sea_orm::sea_query::ExprTrait::add(Expr::col(two_factor_challenges::Column::Failures), 1),
        )
        .filter(two_factor_challenges::Column::TokenHash.eq(key.clone()))
        .filter(two_factor_challenges::Column::Failures.lt(MAX_WRONG_CODES))
        .exec(&state.db)
        .await?;
    if claimed.rows_affected == 0 {
        cap.give_back(state).await?;
        return Err(Error::RateLimited {
            message: TOO_MANY_CODES.to_owned(),
            retry_after_secs: u64::try_from((pending.expires_at - Utc::now()).num_seconds().max(1))
                .unwrap_or(1),
        });
    }
    let email = Email::parse(Some(&user.email)).map_err(|m| Error::internal(anyhow::anyhow!(m)))?;
    let throttle = Throttle::new(state, &email, Some(user.id), client);
    if let Err(err) = throttle.take(state).await {
        cap.give_back(state).await?;
        return Err(err);
    }

    let Some(redeemed) = redeem(state, &state.db, &user, code).await? else {
        Event::new(Kind::SignInFailed, Some(user.id), client)
            .detail("wrong two-factor code")
            .record(&state.db)
            .await?;
        cap.wrong_code(state, &user, taken, client).await?;
        return Err(Error::BadRequest(INVALID_CODE.to_owned()));
    };
    cap.give_back(state).await?;
    // Single use: of two requests racing with the same challenge, one deletes it.
    let used = two_factor_challenges::Entity::delete_by_id(key)
        .exec(&state.db)
        .await?;
    if used.rows_affected == 0 {
        return Err(expired());
    }
    throttle.succeeded(state).await?;
    if user.status == "suspended" {
        return Err(Error::Forbidden(super::login::SUSPENDED.to_owned()));
    }
    if redeemed == Redeemed::Recovery {
        let left = unused_recovery_codes(&state.db, user.id).await?;
        Event::new(Kind::RecoveryCodeUsed, Some(user.id), client)
            .detail(format!("{left} left"))
            .record(&state.db)
            .await?;
    }
    let signed_in = sessions::start(state, &state.db, user, client).await?;
    let factor = if redeemed == Redeemed::Recovery {
        "recovery code"
    } else {
        "authenticator code"
    };
    Event::new(Kind::SignIn, Some(signed_in.user.id), client)
        .detail(format!("{} + {factor}", pending.method))
        .record(&state.db)
        .await?;
    Ok(signed_in)
}

/// Checks a second-factor code for `user` outside sign-in (confirming it's them): the same
/// per-account cap as sign-in, and the code is used up when right.
///
/// # Errors
/// 429 while the account's second step is closed; a database failure.
pub async fn check_code(
    state: &AppState,
    user: &users::Model,
    code: &str,
    client: &ClientInfo,
) -> Result<bool> {
    let cap = AccountCap::new(state, user.id);
    let taken = cap.take(state, user, client).await?;
    if redeem(state, &state.db, user, code).await?.is_some() {
        cap.give_back(state).await?;
        return Ok(true);
    }
    cap.wrong_code(state, user, taken, client).await?;
    Ok(false)
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

/// How many recovery codes of the account are still unused.
///
/// # Errors
/// On a database failure.
pub async fn unused_recovery_codes(db: &impl ConnectionTrait, user_id: Uuid) -> Result<u64> {
    Ok(recovery_codes::Entity::find()
        .filter(recovery_codes::Column::UserId.eq(user_id))
        .filter(recovery_codes::Column::UsedAt.is_null())
        .count(db)
        .await?)
}

/// Starts (or restarts) enrolment with a new secret.
///
/// # Errors
/// 409 when two-factor is already on.
pub async fn start(state: &AppState, viewer: &Viewer) -> Result<Enrolment> {
    viewer.require_recent_sign_in()?;
    if viewer.user.two_factor_enabled {
        return Err(Error::Conflict(ALREADY_ON.to_owned()));
    }
    let mut bytes = [0u8; 20];
    OsRng.fill_bytes(&mut bytes);
    let secret = Secret::from(bytes.to_vec());
    let secret_base32 = secret.to_base32();
    let totp = authenticator(&secret_base32, &viewer.user.email, &state.config.app_name)?;
    let otpauth_uri = totp
        .to_url()
        .map_err(|err| Error::internal(anyhow::anyhow!("no otpauth URI: {err}")))?;
    let updated = users::Entity::update_many()
        .col_expr(
            users::Column::TotpSecret,
            Expr::value(Some(secret_base32.clone())),
        )
        .col_expr(users::Column::TotpLastStep, Expr::value(Option::<i64>::None))
        .filter(users::Column::Id.eq(viewer.user.id))
        .filter(users::Column::TwoFactorEnabled.eq(false))
        .exec(&state.db)
        .await?;
    if updated.rows_affected == 0 {
        return Err(Error::Conflict(ALREADY_ON.to_owned()));
    }
    Ok(Enrolment {
        secret: secret_base32,
        otpauth_uri,
    })
}

/// Confirms enrolment with a first code: two-factor goes on and ten recovery codes are made,
/// returned this once.
///
/// # Errors
/// 400 'Invalid code'; 409 when already on; 400 when enrolment was not started; 429 while
/// the sign-in throttle holds.
pub async fn confirm(
    state: &AppState,
    viewer: &Viewer,
    form: ConfirmForm,
    client: &ClientInfo,
) -> Result<Vec<String>> {
    let code = form
        .code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| Error::field("code", CODE_REQUIRED))?;
    let user = &viewer.user;
    if user.two_factor_enabled {
        return Err(Error::Conflict(ALREADY_ON.to_owned()));
    }
    if user.totp_secret.is_none() {
        return Err(Error::BadRequest(NOT_STARTED.to_owned()));
    }
    let email = Email::parse(Some(&user.email)).map_err(|m| Error::internal(anyhow::anyhow!(m)))?;
    let throttle = Throttle::new(state, &email, Some(user.id), client);
    throttle.take(state).await?;
    let code = normalize(code);
    let step = if is_app_code(&code) {
        matching_step(user, &code)?
    } else {
        None
    };
    let Some(step) = step else {
        return Err(Error::field("code", INVALID_CODE));
    };

    let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
    let txn = state.db.begin().await?;
    let switched = users::Entity::update_many()
        .col_expr(users::Column::TwoFactorEnabled, Expr::value(true))
        .col_expr(users::Column::TotpLastStep, Expr::value(Some(step)))
        .col_expr(users::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(users::Column::Id.eq(user.id))
        .filter(users::Column::TwoFactorEnabled.eq(false))
        .filter(users::Column::TotpSecret.eq(user.totp_secret.clone()))
        .exec(&txn)
        .await?;
    if switched.rows_affected == 0 {
        // Enrolment was restarted or finished in another tab meanwhile.
        return Err(Error::field("code", INVALID_CODE));
    }
    replace_recovery_codes(state, &txn, user.id, &codes).await?;
    let link = format!("{}/security", state.config.platforms.main);
    let notice = mail::two_factor_changed(&state.config.app_name, &user.email, &user.name, true, &link);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::TwoFactorEnabled, Some(user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    state.mail_ready.notify_one();
    throttle.succeeded(state).await?;
    Ok(codes)
}

async fn replace_recovery_codes(
    state: &AppState,
    db: &impl ConnectionTrait,
    user_id: Uuid,
    codes: &[String],
) -> Result<()> {
    recovery_codes::Entity::delete_many()
        .filter(recovery_codes::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    let now = Utc::now();
    recovery_codes::Entity::insert_many(codes.iter().map(|code| recovery_codes::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user_id),
        code_hash: Set(recovery_hash(state, user_id, code)),
        used_at: Set(None),
        created_at: Set(now),
    }))
    .exec(db)
    .await?;
    Ok(())
}

/// Turns two-factor off with the password (when the account has one) and a code.
///
/// # Errors
/// Field errors ('Password is incorrect', 'Invalid code'); 400 when it is not on; 429 while
/// the sign-in throttle holds; 503 when hashing is full.
pub async fn disable(
    state: &AppState,
    viewer: &Viewer,
    form: DisableForm,
    client: &ClientInfo,
) -> Result<()> {
    let user = &viewer.user;
    if !user.two_factor_enabled {
        return Err(Error::BadRequest(NOT_ON.to_owned()));
    }
    viewer.require_recent_sign_in()?;
    let has_password = user.password_hash.is_some();
    let mut errors = FieldErrors::new();
    let password = if has_password {
        errors.check("password", Password::parse_existing(form.password.as_deref()))
    } else {
        None
    };
    let code = form.code.as_deref().map(str::trim).filter(|c| !c.is_empty());
    if code.is_none() {
        errors.add("code", CODE_REQUIRED);
    }
    errors.into_result()?;
    let code = code.unwrap_or_default();

    let email = Email::parse(Some(&user.email)).map_err(|m| Error::internal(anyhow::anyhow!(m)))?;
    let throttle = Throttle::new(state, &email, Some(user.id), client);
    throttle.take(state).await?;
    if let Some(password) = password
        && !state
            .passwords
            .verify(&password, user.password_hash.as_deref())
            .await?
    {
        Event::new(Kind::SignInFailed, Some(user.id), client)
            .detail("wrong password on turning two-factor off")
            .record(&state.db)
            .await?;
        return Err(Error::field("password", WRONG_PASSWORD));
    }
    let cap = AccountCap::new(state, user.id);
    let taken = cap.take(state, user, client).await?;
    let txn = state.db.begin().await?;
    if redeem(state, &txn, user, code).await?.is_none() {
        drop(txn);
        Event::new(Kind::SignInFailed, Some(user.id), client)
            .detail("wrong code on turning two-factor off")
            .record(&state.db)
            .await?;
        cap.wrong_code(state, user, taken, client).await?;
        return Err(Error::field("code", INVALID_CODE));
    }
    turn_off(&txn, user).await?;
    let link = format!("{}/security", state.config.platforms.main);
    let notice = mail::two_factor_changed(&state.config.app_name, &user.email, &user.name, false, &link);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::TwoFactorDisabled, Some(user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    state.mail_ready.notify_one();
    throttle.succeeded(state).await?;
    cap.give_back(state).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
