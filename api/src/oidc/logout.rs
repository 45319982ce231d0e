//! RP-initiated logout 1.0 (`GET|POST /oauth2/logout`): signs the browser out at once only
//! with an ID token issued for its own session, otherwise after asking.

use chrono::DateTime;
use entity::sessions as session_rows;
use openidconnect::{
    IdToken, IssuerUrl, JsonWebKeySet, Nonce, NonceVerifier,
    core::{
        CoreGenderClaim, CoreIdTokenVerifier, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm,
    },
};
use sea_orm::EntityTrait;
use serde::Deserialize;
use url::Url;

use super::{
    BrowserAnswer, TalentClaims,
    authorize::Browser,
    backchannel, clients, keys,
    pages::{PageStatus, logout_confirmation, page, sign_out_error_page},
};
use crate::{accounts::sessions, context::Context, html::escape};

/// The query of `GET /oauth2/logout` (RP-initiated logout 1.0), or its form.
#[derive(Debug, Default, Deserialize)]
pub struct LogoutQuery {
    pub id_token_hint: Option<String>,
    pub client_id: Option<String>,
    pub post_logout_redirect_uri: Option<String>,
    pub state: Option<String>,
    /// `yes` from the provider's own confirmation page.
    pub confirm: Option<String>,
}

struct AnyNonce;

impl NonceVerifier for AnyNonce {
    fn verify(self, _nonce: Option<&Nonce>) -> Result<(), String> {
        Ok(())
    }
}

type HintToken =
    IdToken<TalentClaims, CoreGenderClaim, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm>;

/// What a valid `id_token_hint` says: the client it was issued to, whom, and which session.
pub(super) struct Hint {
    client_id: String,
    pub sub: String,
    sid: Option<String>,
}

/// The claims of an `id_token_hint`, when it is one of ours (an expired one counts).
pub(super) async fn read_hint(ctx: &Context, hint: &str) -> Option<Hint> {
    let token: HintToken = hint.parse().ok()?;
    let payload = hint.split('.').nth(1)?;
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, payload).ok()?,
    )
    .ok()?;
    let audience = match &claims["aud"] {
        serde_json::Value::String(a) => a.clone(),
        serde_json::Value::Array(list) => list.first()?.as_str()?.to_owned(),
        _ => return None,
    };
    let jwks: JsonWebKeySet<_> = keys::published(&ctx.db, &ctx.vault).await.ok()?;
    let issuer = IssuerUrl::new(ctx.config.platforms.main.clone()).ok()?;
    let issued_at = claims["iat"].as_i64()?;
    let verifier =
        CoreIdTokenVerifier::new_public_client(openidconnect::ClientId::new(audience.clone()), issuer, jwks)
            .set_allowed_algs(vec![
                CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
                CoreJwsSigningAlgorithm::EdDsa,
            ])
            // A hint may have expired: the signature and issuer are what matter.
            .set_time_fn(move || DateTime::from_timestamp(issued_at, 0).unwrap_or_default());
    let verified = token.claims(&verifier, AnyNonce).ok()?;
    Some(Hint {
        client_id: audience,
        sub: verified.subject().to_string(),
        sid: verified.additional_claims().sid.clone(),
    })
}

/// A `POST /oauth2/logout` whose form does not read: the page every other sign-out the provider
/// cannot act on gets.
pub fn unreadable_form(ctx: &Context) -> BrowserAnswer {
    sign_out_error_page(
        ctx,
        "The sign-out form could not be read: it is too large, gives a parameter more than once, or is not text.",
    )
}

/// `GET|POST /oauth2/logout`: ends the Talent Suite session of this browser (its clients hear
/// of it through back-channel logout) and returns to a registered post-logout URI.
///
/// Signing out at once needs an `id_token_hint` issued for this very session: any other
/// request (no hint, or a hint for another session) gets a confirmation page first, so a link
/// or an image on another site cannot sign a person out. `confirmed` is that page's answer.
pub async fn logout(
    ctx: &Context,
    caller: &Browser<'_>,
    query: LogoutQuery,
    confirmed: bool,
) -> BrowserAnswer {
    let hint = match query.id_token_hint.as_deref() {
        Some(hint) => match read_hint(ctx, hint).await {
            Some(hint) => Some(hint),
            None => return sign_out_error_page(ctx, "The sign-out link carries a token that is not ours."),
        },
        None => None,
    };
    // Both named: they must agree (RP-initiated logout 1.0, section 2).
    if let (Some(hint), Some(asked)) = (&hint, &query.client_id)
        && &hint.client_id != asked
    {
        return sign_out_error_page(
            ctx,
            "The sign-out link names another application than its token was issued to.",
        );
    }
    let client_id = hint
        .as_ref()
        .map(|h| h.client_id.clone())
        .or(query.client_id.clone());
    let client = match client_id.as_deref() {
        Some(id) => clients::find(&ctx.db, id).await.ok().flatten(),
        None => None,
    };
    let destination = match (&query.post_logout_redirect_uri, &client) {
        (Some(uri), Some(client)) if client.post_logout_redirect_uris.contains(uri) => Some(uri.clone()),
        (Some(_), _) => {
            return sign_out_error_page(
                ctx,
                "The application asked to return to an address it has not registered.",
            );
        }
        _ => None,
    };

    let viewer = match sessions::optional(ctx, caller.token).await {
        Ok(viewer) => viewer,
        Err(err) => return err.into(),
    };
    if let Some(viewer) = &viewer {
        let hinted_this_session = hint.as_ref().is_some_and(|hint| {
            hint.sub == viewer.user.id.to_string()
                && hint
                    .sid
                    .as_deref()
                    .is_none_or(|sid| sid == viewer.session_id.to_string())
        });
        if !hinted_this_session && !confirmed {
            let name = client.as_ref().map(|c| c.name.clone());
            return logout_confirmation(ctx, &query, client_id.as_deref(), name.as_deref());
        }
        if let Err(err) = end_browser_session(ctx, caller, viewer.user.id, viewer.session_id).await {
            return err.into();
        }
    } else if let Some((user_id, session_id)) = hinted_session(ctx, hint.as_ref()).await {
        // No cookie came: a partner on another site posts its form top-level, and a browser
        // keeps a SameSite=Lax cookie from such a POST. The hint's own session (its `sid`,
        // of its subject) is the one to end: only the application it was issued to holds it.
        if let Err(err) = end_browser_session(ctx, caller, user_id, session_id).await {
            return err.into();
        }
    }
    let answer = match destination {
        Some(uri) => {
            let mut url = Url::parse(&uri).expect("registered URIs are URLs");
            if let Some(client_state) = &query.state {
                url.query_pairs_mut().append_pair("state", client_state);
            }
            BrowserAnswer::Redirect(url.into())
        }
        None => page(
            ctx,
            PageStatus::Shown,
            "You are signed out",
            &format!(
                "<p>You have been signed out of {app}.</p><p><a href=\"{home}\">Go to {app}</a></p>",
                app = escape(&ctx.config.app_name),
                home = escape(&ctx.config.platforms.main)
            ),
        ),
    };
    BrowserAnswer::SignedOut(Box::new(answer))
}

/// The live session a hint names, when it is its subject's: `(user, session)`.
async fn hinted_session(ctx: &Context, hint: Option<&Hint>) -> Option<(uuid::Uuid, uuid::Uuid)> {
    let hint = hint?;
    let session_id = uuid::Uuid::parse_str(hint.sid.as_deref()?).ok()?;
    let row = session_rows::Entity::find_by_id(session_id)
        .one(&ctx.db)
        .await
        .ok()??;
    (row.user_id.to_string() == hint.sub).then_some((row.user_id, session_id))
}

async fn end_browser_session(
    ctx: &Context,
    caller: &Browser<'_>,
    user_id: uuid::Uuid,
    session_id: uuid::Uuid,
) -> crate::error::Result<()> {
    backchannel::sessions_ending(&ctx.db, backchannel::session(session_id)).await?;
    session_rows::Entity::delete_by_id(session_id)
        .exec(&ctx.db)
        .await?;
    ctx.backchannel_ready.notify_one();
    crate::audit::Event::new(crate::audit::Kind::Logout, Some(user_id), caller.client)
        .detail("RP-initiated")
        .record(&ctx.db)
        .await?;
    Ok(())
}
