//! `changePassword`: the signed-in person sets a new password. Every other session ends, this
//! one stays, and the owner is told by mail.

use chrono::Utc;
use entity::users;
use sea_orm::{ActiveModelTrait, Set};

use super::{
    fields::Password,
    sessions::{self, Viewer},
    throttle::Throttle,
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    mail,
};

pub const CHANGED: &str = "Password changed";
pub const WRONG_CURRENT: &str = "Current password is incorrect";
pub const CURRENT_REQUIRED: &str = "Current password is required";
pub const CONFIRM_REQUIRED: &str = "Confirm password is required";
pub const MISMATCH: &str = "Passwords do not match";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ChangePasswordForm {
    /// Not needed by an account that has none yet (made with Google).
    pub current_password: Option<String>,
    pub password: Option<String>,
    pub confirm_password: Option<String>,
}

/// Checks the current password (a wrong one counts as a failed sign-in), then sets the new one;
/// gives back the account before and after.
///
/// # Errors
/// Field errors (the reset rule's texts for the new password, "Current password is incorrect");
/// 429 while the sign-in throttle holds; 503 when hashing is full.
#[tracing::instrument(skip_all)]
pub async fn change(
    ctx: &Context,
    viewer: &Viewer,
    form: ChangePasswordForm,
    client: &ClientInfo,
) -> Result<super::PasswordSet> {
    let has_password = viewer.user.password_hash.is_some();
    if !has_password {
        // A first password is a new way into the account: the session must be fresh.
        viewer.require_recent_sign_in()?;
    }
    let mut errors = FieldErrors::new();
    let current = if has_password {
        errors.check(
            "currentPassword",
            Password::parse_existing(form.current_password.as_deref())
                .map_err(|_| CURRENT_REQUIRED.to_owned()),
        )
    } else {
        None
    };
    let password = errors.check("password", Password::parse_reset(form.password.as_deref()));
    match form.confirm_password.as_deref() {
        None | Some("") => errors.add("confirmPassword", CONFIRM_REQUIRED),
        Some(confirm) if form.password.as_deref() != Some(confirm) => errors.add("confirmPassword", MISMATCH),
        Some(_) => {}
    }
    errors.into_result()?;
    let password = password.ok_or_else(|| Error::field("password", "Password is required"))?;

    if let Some(current) = current {
        let mut throttle = Throttle::of_account(ctx, &viewer.user, client)?;
        throttle.take(ctx).await?;
        if !ctx
            .passwords
            .verify(&current, viewer.user.password_hash.as_deref())
            .await?
        {
            Event::new(Kind::SignInFailed, Some(viewer.user.id), client)
                .detail("wrong current password on change")
                .record(&ctx.db)
                .await?;
            return Err(Error::field("currentPassword", WRONG_CURRENT));
        }
        throttle.succeeded(ctx).await?;
    }
    let hash = ctx.passwords.hash(&password).await?;

    let txn = crate::db::begin_write(&ctx.db).await?;
    let mut user: users::ActiveModel = viewer.user.clone().into();
    user.password_hash = Set(Some(hash));
    user.updated_at = Set(Utc::now());
    let user = user.update(&txn).await?;
    let ended = sessions::end_all(&txn, user.id, Some(viewer.session_id)).await?;
    // A reset or sign-in link mailed before the change (to whoever read the mailbox then) must
    // not undo it, nor a second step won with the old password finish.
    super::forget_mailed_secrets(&txn, user.id, None).await?;
    super::two_factor::forget_challenges(&txn, user.id).await?;
    let forgot = format!("{}/forgot-password", ctx.config.platforms.main);
    let notice = mail::password_changed(&ctx.config.app_name, &user.email, &user.name, &forgot);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::PasswordChanged, Some(user.id), client)
        .detail(format!("{ended} other session(s) ended"))
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(super::PasswordSet {
        before: viewer.user.clone(),
        after: user,
    })
}
