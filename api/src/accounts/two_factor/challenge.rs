//! The second step of a sign-in: a proven first factor earns a challenge, and the challenge
//! and a code earn the session.

use chrono::Utc;
use entity::{two_factor_challenges, users};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};

use super::super::{
    sessions::{self, SignedIn},
    throttle::Throttle,
    tokens,
};
use super::{
    AccountCap, CHALLENGE_LIFETIME, CHALLENGE_REQUIRED, CODE_REQUIRED, ChallengeForm, MAX_WRONG_CODES,
    Redeemed, SignInStep, TOO_MANY_CODES, redeem, unused_recovery_codes,
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
};

/// A session for `user`, or a challenge when two-factor is on. `method` says how the first
/// factor was proven ("password" or "google").
///
/// # Errors
/// On a database failure.
#[tracing::instrument(skip_all)]
pub async fn sign_in_or_challenge(
    ctx: &Context,
    user: users::Model,
    method: &'static str,
    client: &ClientInfo,
) -> Result<SignInStep> {
    // A password proven against the account as read must still be its password when the
    // session or the second step is written (a reset may have committed while it was checked).
    let by_password = method == "password";
    if !user.two_factor_enabled {
        let signed_in = if by_password {
            sessions::start_after_password(ctx, &ctx.db, user, client).await?
        } else {
            sessions::start(ctx, &ctx.db, user, client).await?
        };
        Event::new(Kind::SignIn, Some(signed_in.user.id), client)
            .detail(method)
            .record(&ctx.db)
            .await?;
        return Ok(SignInStep::Done(Box::new(signed_in)));
    }
    let challenge = tokens::random_token();
    let now = Utc::now();
    let password = by_password.then_some(user.password_hash.as_deref()).flatten();
    sessions::insert_while_signable(
        &ctx.db,
        &user,
        password,
        two_factor_challenges::Entity,
        vec![
            (
                two_factor_challenges::Column::TokenHash,
                Expr::val(tokens::sha256_hex(&challenge)),
            ),
            (two_factor_challenges::Column::UserId, Expr::val(user.id)),
            (two_factor_challenges::Column::Method, Expr::val(method)),
            (two_factor_challenges::Column::Failures, Expr::val(0)),
            (two_factor_challenges::Column::CreatedAt, Expr::val(now)),
            (
                two_factor_challenges::Column::ExpiresAt,
                Expr::val(now + CHALLENGE_LIFETIME),
            ),
        ],
    )
    .await?;
    Event::new(Kind::TwoFactorChallenged, Some(user.id), client)
        .detail(method)
        .record(&ctx.db)
        .await?;
    Ok(SignInStep::TwoFactor { challenge })
}

/// Completes a sign-in with the challenge and a code.
///
/// # Errors
/// Field errors; 400 'Invalid code'; 410 for an unknown, used or expired challenge; 429 after
/// five wrong codes for the challenge, or while the sign-in throttle holds; 403 for an account
/// suspended meanwhile.
#[tracing::instrument(skip_all)]
pub async fn complete(ctx: &Context, form: ChallengeForm, client: &ClientInfo) -> Result<SignedIn> {
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
    let expired = || Error::ChallengeExpired;
    if challenge.len() > 128 || code.len() > 64 {
        return Err(expired());
    }
    let key = tokens::sha256_hex(challenge);
    let (pending, user) = two_factor_challenges::Entity::find_by_id(key.clone())
        .find_also_related(users::Entity)
        .one(&ctx.db)
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
    let cap = AccountCap::new(ctx, user.id);
    let taken = cap.take(ctx, &user, client).await?;
    // The challenge's own limit, claimed in the same statement that checks it, so parallel
    // requests cannot pass it.
    let claimed = two_factor_challenges::Entity::update_many()
        .col_expr(
            two_factor_challenges::Column::Failures,
            sea_orm::sea_query::ExprTrait::add(Expr::col(two_factor_challenges::Column::Failures), 1),
        )
        .filter(two_factor_challenges::Column::TokenHash.eq(key.clone()))
        .filter(two_factor_challenges::Column::Failures.lt(MAX_WRONG_CODES))
        .exec(&ctx.db)
        .await?;
    if claimed.rows_affected == 0 {
        cap.give_back(ctx).await?;
        return Err(Error::RateLimited {
            message: TOO_MANY_CODES.to_owned(),
            retry_after_secs: u64::try_from((pending.expires_at - Utc::now()).num_seconds().max(1))
                .unwrap_or(1),
        });
    }
    let mut throttle = Throttle::of_account(ctx, &user, client)?;
    if let Err(err) = throttle.take(ctx).await {
        // Refused before any code was checked: neither the account's cap nor this challenge's
        // five tries are spent by it.
        cap.give_back(ctx).await?;
        two_factor_challenges::Entity::update_many()
            .col_expr(
                two_factor_challenges::Column::Failures,
                sea_orm::sea_query::ExprTrait::sub(Expr::col(two_factor_challenges::Column::Failures), 1),
            )
            .filter(two_factor_challenges::Column::TokenHash.eq(key))
            .filter(two_factor_challenges::Column::Failures.gt(0))
            .exec(&ctx.db)
            .await?;
        return Err(err);
    }

    // The account stays locked to the end of this step, and the code, the challenge and the
    // session are one transaction: a reset or a password change under way (each locks the
    // account, then ends its sessions and the second steps begun before it) is waited for, and
    // this challenge is then found spent; one that begins later waits for this step and then
    // ends its session. Without it a challenge spent just before a reset could still open a
    // session just after it.
    let txn = crate::db::begin_write(&ctx.db).await?;
    let user = super::super::locked(&txn, user.id).await?.ok_or_else(expired)?;
    // The same challenge sent again while this one waited for the lock was spent by it: the
    // right code it carries is no wrong code against the account.
    let still_pending = two_factor_challenges::Entity::find_by_id(key.clone())
        .one(&txn)
        .await?
        .is_some();
    if !still_pending {
        txn.rollback().await?;
        cap.give_back(ctx).await?;
        throttle.untried(ctx).await?;
        return Err(expired());
    }
    let Some(redeemed) = redeem(ctx, &txn, &user, code).await? else {
        txn.rollback().await?;
        Event::new(Kind::SignInFailed, Some(user.id), client)
            .detail("wrong two-factor code")
            .record(&ctx.db)
            .await?;
        cap.wrong_code(ctx, &user, taken, client).await?;
        return Err(Error::field("code", super::INVALID_CODE));
    };
    // Single use: of two requests racing with the same challenge, one deletes it.
    let used = two_factor_challenges::Entity::delete_by_id(key)
        .exec(&txn)
        .await?;
    if used.rows_affected == 0 {
        txn.rollback().await?;
        cap.give_back(ctx).await?;
        return Err(expired());
    }
    // A suspended account's step is spent all the same, and opens nothing.
    let signed_in = match super::super::ensure_can_sign_in(&user) {
        Ok(()) => Ok(sessions::start(ctx, &txn, user, client).await?),
        Err(refused) => Err(refused),
    };
    txn.commit().await?;
    cap.give_back(ctx).await?;
    throttle.succeeded(ctx).await?;
    let signed_in = signed_in?;
    if redeemed == Redeemed::Recovery {
        let left = unused_recovery_codes(&ctx.db, signed_in.user.id).await?;
        Event::new(Kind::RecoveryCodeUsed, Some(signed_in.user.id), client)
            .detail(format!("{left} left"))
            .record(&ctx.db)
            .await?;
    }
    let factor = if redeemed == Redeemed::Recovery {
        "recovery code"
    } else {
        "authenticator code"
    };
    Event::new(Kind::SignIn, Some(signed_in.user.id), client)
        .detail(format!("{} + {factor}", pending.method))
        .record(&ctx.db)
        .await?;
    Ok(signed_in)
}
