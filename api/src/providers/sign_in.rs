//! Signing in, registering and connecting with a provider's ticket (LinkedIn, Microsoft,
//! GitHub). The ticket is spent first, whatever the answer; the rules for which account an
//! identity opens are `accounts::identities`'.

use super::{Provider, ProviderIdentity, tickets};
use crate::{
    accounts::{
        self,
        fields::{Email, Role, name_from_provider},
        identities, login, register, sessions,
        sessions::Viewer,
        two_factor::{self, SignInStep},
    },
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result},
};

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct TicketForm {
    pub ticket: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct TicketRegisterForm {
    pub ticket: Option<String>,
    /// career, campus or hire.
    pub role: Option<String>,
}

/// What a registration with a provider came to.
pub enum Registration {
    /// Signed in (or its two-factor challenge); `created` when the account is new.
    SignedIn { step: SignInStep, created: bool },
    /// A new account whose email the provider did not vouch for: it is verified by code, as a
    /// password registration is.
    Pending(Box<entity::users::Model>),
}

impl Registration {
    pub fn message(&self) -> &'static str {
        match self {
            Self::SignedIn { created: false, .. } => login::SIGNED_IN,
            _ => register::REGISTERED,
        }
    }

    pub fn created(&self) -> bool {
        !matches!(self, Self::SignedIn { created: false, .. })
    }
}

pub fn no_account(provider: Provider) -> String {
    format!(
        "No account found for this {} email. Please register first.",
        provider.label()
    )
}

async fn sign_in(
    ctx: &Context,
    user: entity::users::Model,
    who: &ProviderIdentity,
    client: &ClientInfo,
) -> Result<SignInStep> {
    accounts::ensure_can_sign_in(&user)?;
    if !user.email_verified {
        return Err(Error::EmailNotVerified);
    }
    two_factor::sign_in_or_challenge(ctx, user, who.provider.as_str(), client).await
}

/// # Errors
/// 401 'Sign-in could not be completed' (a bad, used or expired ticket); 404 when no account
/// has this identity or its vouched email.
#[tracing::instrument(skip_all)]
pub async fn login(ctx: &Context, form: TicketForm, client: &ClientInfo) -> Result<SignInStep> {
    let who = tickets::take(&ctx.db, form.ticket.as_deref()).await?;
    let user = identities::existing(ctx, &who, client)
        .await?
        .ok_or_else(|| Error::NotFound(no_account(who.provider)))?;
    sign_in(ctx, user, &who, client).await
}

/// Creates an account for the identity (verified when the provider vouches for the email), or
/// signs in when it has one.
///
/// # Errors
/// 400 for a role other than career, campus or hire; 401 for a bad ticket.
#[tracing::instrument(skip_all)]
pub async fn register(ctx: &Context, form: TicketRegisterForm, client: &ClientInfo) -> Result<Registration> {
    let role = Role::parse_selectable(form.role.as_deref()).map_err(|m| Error::field("role", m))?;
    let who = tickets::take(&ctx.db, form.ticket.as_deref()).await?;
    for _ in 0..2 {
        if let Some(user) = identities::existing(ctx, &who, client).await? {
            let step = sign_in(ctx, user, &who, client).await?;
            return Ok(Registration::SignedIn { step, created: false });
        }
        let email = Email::parse(who.email.as_deref())
            .map_err(|_| Error::Unauthenticated(tickets::INVALID.to_owned()))?;
        let name = name_from_provider(who.name.as_deref(), &email);
        // `None`: the same person registering twice at once; the next round signs in.
        let Some(user) = identities::create_account(ctx, &who, &email, name, role).await? else {
            continue;
        };
        Event::new(Kind::Registered, Some(user.id), client)
            .detail(who.provider.as_str())
            .record(&ctx.db)
            .await?;
        if !user.email_verified {
            return Ok(Registration::Pending(Box::new(user)));
        }
        let signed_in = sessions::start(ctx, &ctx.db, user, client).await?;
        return Ok(Registration::SignedIn {
            step: SignInStep::Done(Box::new(signed_in)),
            created: true,
        });
    }
    // The email is another account's, which the provider's word cannot open.
    Err(Error::EmailTaken)
}

/// Connects the ticket's identity to the viewer's account. A new way in needs a recent sign-in
/// (a stolen session cannot add the thief's own account), checked before the ticket is spent
/// so that it still serves once the person has confirmed it's them.
///
/// # Errors
/// 403 `REAUTHENTICATION_REQUIRED` without a recent sign-in; 401 for a bad ticket; 409 when
/// the identity belongs to another account.
#[tracing::instrument(skip_all)]
pub async fn link(ctx: &Context, viewer: &Viewer, form: TicketForm, client: &ClientInfo) -> Result<Provider> {
    viewer.require_recent_sign_in()?;
    let who = tickets::take(&ctx.db, form.ticket.as_deref()).await?;
    identities::connect(ctx, viewer, &who, client).await?;
    Ok(who.provider)
}
