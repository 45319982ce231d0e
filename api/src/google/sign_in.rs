//! Sign-in and registration with a Google ID token.
//!
//! Google vouches for the email of its token, so an account with that email gets linked. An
//! account that was never verified may have been registered by someone else to wait for its
//! owner (pre-hijacking): its password, sessions, codes and reset links are dropped before the
//! link, and the owner is told by mail.

use chrono::Utc;
use entity::{used_id_tokens, users};
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set, TransactionTrait};

use super::{GoogleIdentity, INVALID_TOKEN};
use crate::{
    accounts::{
        self,
        fields::{Email, MAX_NAME, Role},
        find_by_email, sessions, tokens,
        two_factor::{self, SignInStep},
    },
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result, is_unique_violation},
    mail,
};

pub const NO_ACCOUNT: &str = "No account found for this Google email. Please register first.";
const UNVERIFIED_NOTE: &str = "The account had never been verified, so the password it was \
registered with was removed and every device was signed out. To sign in with a password as \
well, choose one through \"Forgot password\".";
const VERIFIED_NOTE: &str = "Your password and sessions are unchanged.";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GoogleLoginForm {
    pub id_token: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GoogleRegisterForm {
    pub id_token: Option<String>,
    /// career, campus or hire.
    pub role: Option<String>,
}

/// A Google sign-in (or its two-factor challenge), and whether it created the account.
pub struct GoogleSignIn {
    pub step: SignInStep,
    pub created: bool,
}

impl GoogleSignIn {
    /// What the person is told: a new account, or a sign-in to the one they had.
    pub fn message(&self) -> &'static str {
        if self.created {
            accounts::register::REGISTERED
        } else {
            accounts::login::SIGNED_IN
        }
    }
}

/// The identity of a valid ID token, which is used up: a token is accepted once.
async fn identity(ctx: &Context, id_token: Option<&str>) -> Result<GoogleIdentity> {
    let invalid = || Error::Unauthenticated(INVALID_TOKEN.to_owned());
    let token = id_token
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() < 8192)
        .ok_or_else(invalid)?;
    let who = ctx.google.verify(token).await?;
    let used = used_id_tokens::ActiveModel {
        token_hash: Set(tokens::sha256_hex(token)),
        expires_at: Set(who.expires_at),
    }
    .insert(&ctx.db)
    .await;
    match used {
        Ok(_) => Ok(who),
        Err(err) if is_unique_violation(&err, "used_id_tokens_pkey", "used_id_tokens.token_hash") => {
            tracing::warn!("a Google ID token was presented twice");
            Err(invalid())
        }
        Err(err) => Err(err.into()),
    }
}

/// The account of this Google identity: by its `sub`, else by its email, which then gets
/// linked (see the module's note on accounts that were never verified).
async fn existing(ctx: &Context, who: &GoogleIdentity, client: &ClientInfo) -> Result<Option<users::Model>> {
    if let Some(user) = users::Entity::find()
        .filter(users::Column::GoogleSub.eq(&who.sub))
        .one(&ctx.db)
        .await?
    {
        return Ok(Some(user));
    }
    let Ok(email) = Email::parse(Some(&who.email)) else {
        return Ok(None);
    };
    let Some(user) = find_by_email(&ctx.db, &email).await? else {
        return Ok(None);
    };
    if user.google_sub.is_some() {
        // The email belongs to an account linked to another Google identity.
        return Ok(None);
    }
    link(ctx, user, who, client).await.map(Some)
}

async fn link(
    ctx: &Context,
    user: users::Model,
    who: &GoogleIdentity,
    client: &ClientInfo,
) -> Result<users::Model> {
    let was_verified = user.email_verified;
    let txn = ctx.db.begin().await?;
    if !was_verified {
        let ended = sessions::end_all(&txn, user.id, None).await?;
        if ended > 0 {
            Event::new(Kind::SessionsRevoked, Some(user.id), client)
                .detail(format!(
                    "{ended} ended by linking Google to an unverified account"
                ))
                .record(&txn)
                .await?;
        }
        accounts::forget_mailed_secrets(&txn, user.id, None).await?;
    }
    let status = accounts::verified_status(user.status);
    let mut linked: users::ActiveModel = user.into();
    linked.google_sub = Set(Some(who.sub.clone()));
    linked.email_verified = Set(true);
    linked.status = Set(status);
    linked.updated_at = Set(Utc::now());
    if !was_verified {
        linked.password_hash = Set(None);
    }
    let user = linked.update(&txn).await?;
    let note = if was_verified {
        VERIFIED_NOTE
    } else {
        UNVERIFIED_NOTE
    };
    let forgot = format!("{}/forgot-password", ctx.config.platforms.main);
    let notice = mail::google_linked(&ctx.config.app_name, &user.email, &user.name, note, &forgot);
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::GoogleLinked, Some(user.id), client)
        .detail(if was_verified {
            "linked to a verified account"
        } else {
            "linked to an unverified account: password, sessions, codes and links dropped"
        })
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(user)
}

async fn sign_in(ctx: &Context, user: users::Model, client: &ClientInfo) -> Result<SignInStep> {
    accounts::ensure_can_sign_in(&user)?;
    two_factor::sign_in_or_challenge(ctx, user, "google", client).await
}

/// # Errors
/// 401 'Invalid Google token' (also for a token already used); 404 when no account has this
/// identity or email.
#[tracing::instrument(skip_all)]
pub async fn login(ctx: &Context, form: GoogleLoginForm, client: &ClientInfo) -> Result<SignInStep> {
    let who = identity(ctx, form.id_token.as_deref()).await?;
    let user = existing(ctx, &who, client)
        .await?
        .ok_or_else(|| Error::NotFound(NO_ACCOUNT.to_owned()))?;
    sign_in(ctx, user, client).await
}

/// Creates an active, verified account for the identity, or signs in when it exists.
///
/// # Errors
/// 401 'Invalid Google token'; 400 for a role other than career, campus or hire.
#[tracing::instrument(skip_all)]
pub async fn register(ctx: &Context, form: GoogleRegisterForm, client: &ClientInfo) -> Result<GoogleSignIn> {
    let role = Role::parse_selectable(form.role.as_deref()).map_err(|m| Error::field("role", m))?;
    let who = identity(ctx, form.id_token.as_deref()).await?;
    if let Some(user) = existing(ctx, &who, client).await? {
        return Ok(GoogleSignIn {
            step: sign_in(ctx, user, client).await?,
            created: false,
        });
    }
    let email =
        Email::parse(Some(&who.email)).map_err(|_| Error::Unauthenticated(INVALID_TOKEN.to_owned()))?;
    let name = who
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| email.as_str().split('@').next().unwrap_or("User"))
        .chars()
        .take(MAX_NAME)
        .collect::<String>();
    let mut user = accounts::new_account(name, &email, role, true);
    user.google_sub = Set(Some(who.sub.clone()));
    let user = match user.insert(&ctx.db).await {
        Ok(user) => user,
        // The same person registering twice at once: the second becomes a sign-in.
        Err(err)
            if is_unique_violation(&err, "users_email_key", "users.email")
                || is_unique_violation(&err, "users_google_sub_key", "users.google_sub") =>
        {
            let user = existing(ctx, &who, client)
                .await?
                .ok_or_else(|| Error::NotFound(NO_ACCOUNT.to_owned()))?;
            return Ok(GoogleSignIn {
                step: sign_in(ctx, user, client).await?,
                created: false,
            });
        }
        Err(err) => return Err(err.into()),
    };
    Event::new(Kind::GoogleRegistered, Some(user.id), client)
        .record(&ctx.db)
        .await?;
    let signed_in = sessions::start(ctx, &ctx.db, user, client).await?;
    Ok(GoogleSignIn {
        step: SignInStep::Done(Box::new(signed_in)),
        created: true,
    })
}
