//! Turning two-factor on (a new secret, confirmed by a first code, answered with the recovery
//! codes once) and off (the password and a code).

use chrono::Utc;
use entity::users;
use rand::{RngCore, rngs::OsRng};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};
use totp_rs::Secret;

use super::super::{fields::Password, sessions::Viewer, throttle::Throttle};
use super::{
    ALREADY_ON, AccountCap, CODE_REQUIRED, ConfirmForm, DisableForm, Enrolment, INVALID_CODE, NOT_ON,
    NOT_STARTED, RECOVERY_CODES, WRONG_PASSWORD, authenticator, is_app_code, matching_step, normalize,
    recovery::{new_recovery_code, replace_recovery_codes},
    redeem, turn_off,
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    mail,
};

/// Starts (or restarts) enrolment with a new secret.
///
/// # Errors
/// 409 when two-factor is already on.
#[tracing::instrument(skip_all)]
pub async fn start(ctx: &Context, viewer: &Viewer) -> Result<Enrolment> {
    viewer.require_recent_sign_in()?;
    if viewer.user.two_factor_enabled {
        return Err(Error::Conflict(ALREADY_ON.to_owned()));
    }
    let mut bytes = [0u8; 20];
    OsRng.fill_bytes(&mut bytes);
    let secret = Secret::from(bytes.to_vec());
    let secret_base32 = secret.to_base32();
    let totp = authenticator(&secret_base32, &viewer.user.email, &ctx.config.app_name)?;
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
        .exec(&ctx.db)
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
#[tracing::instrument(skip_all)]
pub async fn confirm(
    ctx: &Context,
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
    let mut throttle = Throttle::of_account(ctx, user, client)?;
    throttle.take(ctx).await?;
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
    let txn = crate::db::begin_write(&ctx.db).await?;
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
        // Enrolment was finished (a second click) or started again in another tab meanwhile.
        // The code was right, so it was no guess: it is not counted as a failed attempt.
        drop(txn);
        throttle.succeeded(ctx).await?;
        let now_on = users::Entity::find_by_id(user.id)
            .one(&ctx.db)
            .await?
            .is_some_and(|account| account.two_factor_enabled);
        return Err(if now_on {
            Error::Conflict(ALREADY_ON.to_owned())
        } else {
            Error::field("code", INVALID_CODE)
        });
    }
    replace_recovery_codes(ctx, &txn, user.id, &codes).await?;
    let link = format!("{}/security", ctx.config.platforms.main);
    let notice = mail::two_factor_changed(&ctx.config.app_name, &user.email, &user.name, true, &link);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::TwoFactorEnabled, Some(user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    throttle.succeeded(ctx).await?;
    Ok(codes)
}

/// Turns two-factor off with the password (when the account has one) and a code.
///
/// # Errors
/// Field errors ('Password is incorrect', 'Invalid code'); 409 when it is not on; 429 while
/// the sign-in throttle holds; 503 when hashing is full.
#[tracing::instrument(skip_all)]
pub async fn disable(ctx: &Context, viewer: &Viewer, form: DisableForm, client: &ClientInfo) -> Result<()> {
    let user = &viewer.user;
    if !user.two_factor_enabled {
        return Err(Error::Conflict(NOT_ON.to_owned()));
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

    let mut throttle = Throttle::of_account(ctx, user, client)?;
    throttle.take(ctx).await?;
    if let Some(password) = password
        && !ctx
            .passwords
            .verify(&password, user.password_hash.as_deref())
            .await?
    {
        Event::new(Kind::SignInFailed, Some(user.id), client)
            .detail("wrong password on turning two-factor off")
            .record(&ctx.db)
            .await?;
        return Err(Error::field("password", WRONG_PASSWORD));
    }
    let cap = AccountCap::new(ctx, user.id);
    let taken = cap.take(ctx, user, client).await?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    if redeem(ctx, &txn, user, code).await?.is_none() {
        drop(txn);
        Event::new(Kind::SignInFailed, Some(user.id), client)
            .detail("wrong code on turning two-factor off")
            .record(&ctx.db)
            .await?;
        cap.wrong_code(ctx, user, taken, client).await?;
        return Err(Error::field("code", INVALID_CODE));
    }
    turn_off(&txn, user).await?;
    let link = format!("{}/security", ctx.config.platforms.main);
    let notice = mail::two_factor_changed(&ctx.config.app_name, &user.email, &user.name, false, &link);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::TwoFactorDisabled, Some(user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    throttle.succeeded(ctx).await?;
    cap.give_back(ctx).await?;
    Ok(())
}
