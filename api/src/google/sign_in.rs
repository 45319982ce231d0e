//! Sign-in and registration with a Google ID token.
//!
//! Google vouches for the email of its token, so an account with that email gets joined, by
//! the rules every provider shares (`accounts::identities`).

use entity::{used_id_tokens, users};
use sea_orm::{ActiveModelTrait, Set};

use super::{GoogleIdentity, INVALID_TOKEN};
use crate::{
    accounts::{
        self,
        fields::{Email, Role, name_from_provider},
        identities, sessions, tokens,
        two_factor::{self, SignInStep},
    },
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result, is_unique_violation},
    providers::{Provider, ProviderIdentity},
};

pub const NO_ACCOUNT: &str = "No account found for this Google email. Please register first.";

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

impl GoogleIdentity {
    /// Google's word in the shape every provider's takes: it always vouches for the email.
    fn as_provider_identity(&self) -> ProviderIdentity {
        ProviderIdentity {
            provider: Provider::Google,
            subject: self.sub.clone(),
            email: Some(self.email.clone()),
            email_vouched: true,
            name: self.name.clone(),
        }
    }
}

/// The account of this Google identity, joining the account of its email if need be.
async fn existing(ctx: &Context, who: &GoogleIdentity, client: &ClientInfo) -> Result<Option<users::Model>> {
    identities::existing(ctx, &who.as_provider_identity(), client).await
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
    let name = name_from_provider(who.name.as_deref(), &email);
    // `None`: the same person registering twice at once; the second becomes a sign-in.
    let Some(user) = identities::create_account(ctx, &who.as_provider_identity(), &email, name, role).await?
    else {
        let user = existing(ctx, &who, client)
            .await?
            .ok_or_else(|| Error::NotFound(NO_ACCOUNT.to_owned()))?;
        return Ok(GoogleSignIn {
            step: sign_in(ctx, user, client).await?,
            created: false,
        });
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
