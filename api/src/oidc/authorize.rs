//! The browser side of the provider: `GET /oauth2/authorize` (code flow with PKCE S256),
//! and the consent screen for clients that are not first-party. Its pages are in `pages`, RP-initiated
//! logout in `logout`.

use chrono::Utc;
use entity::{oauth_codes, oauth_consents};
use sea_orm::{EntityTrait, Set, sea_query::OnConflict};
use serde::Deserialize;
use url::Url;
use uuid::Uuid;

use super::{
    BrowserAnswer, CODE_TTL, clients, grants,
    issuance::Write,
    pages::{consent_page, error_page, refused_form},
    parse_scope,
};
use crate::{
    accounts::{sessions, tokens},
    client::ClientInfo,
    context::Context,
};

/// Who asks, as the provider's browser endpoints see them: the session token of the browser's
/// cookie (or a bearer header) and the client's address and agent.
pub struct Browser<'a> {
    pub token: Option<&'a str>,
    pub client: &'a ClientInfo,
}

/// The query of `GET /oauth2/authorize` (and the consent form, which carries it on).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct AuthorizeQuery {
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub response_type: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    pub nonce: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    pub prompt: Option<String>,
    pub max_age: Option<String>,
    /// Set by the provider itself when it sent the person to sign in again (prompt=login,
    /// max_age): a sign-in older than this does not count. Unix milliseconds and a keyed hash
    /// of them with the request's client and PKCE challenge, so a link cannot claim a sign-in
    /// is fresh, nor a mark be carried over to another request.
    pub ts_after: Option<String>,
    /// An ID token naming whom the client expects signed in (OpenID Connect Core 3.1.2.1):
    /// another person signed in answers `login_required`, with `prompt=none` or without.
    pub id_token_hint: Option<String>,
}

/// The keyed hash of a `ts_after` mark: the moment, with the request's client and its PKCE
/// `challenge` (a value the client makes afresh for each request).
fn mark(ctx: &Context, millis: &str, client_id: &str, challenge: &str) -> String {
    ctx.keys.keyed_hash(&["ts_after", millis, client_id, challenge])
}

/// `ts_after` for a sign-in asked for at `millis` by this request.
fn signed_after(ctx: &Context, millis: i64, client_id: &str, challenge: &str) -> String {
    let millis = millis.to_string();
    format!("{millis}.{}", mark(ctx, &millis, client_id, challenge))
}

/// The moment a `ts_after` names, when the provider itself made it for this very request.
fn verified_after(ctx: &Context, value: &str, client_id: &str, challenge: &str) -> Option<i64> {
    let (millis, signature) = value.split_once('.')?;
    let at: i64 = millis.parse().ok()?;
    tokens::same(signature, &mark(ctx, millis, client_id, challenge)).then_some(at)
}

/// `max_age` past a century asks nothing more: read as a century, it cannot overflow a time.
const MAX_AGE_CAP: i64 = 100 * 365 * 24 * 3600;

impl AuthorizeQuery {
    pub(super) fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        let mut push = |name: &'static str, value: &Option<String>| {
            if let Some(value) = value {
                pairs.push((name, value.clone()));
            }
        };
        push("client_id", &self.client_id);
        push("redirect_uri", &self.redirect_uri);
        push("response_type", &self.response_type);
        push("scope", &self.scope);
        push("state", &self.state);
        push("nonce", &self.nonce);
        push("code_challenge", &self.code_challenge);
        push("code_challenge_method", &self.code_challenge_method);
        push("prompt", &self.prompt);
        push("max_age", &self.max_age);
        push("ts_after", &self.ts_after);
        push("id_token_hint", &self.id_token_hint);
        pairs
    }
}

/// Back to the client with `params` (and the request's state and our issuer, RFC 9207).
fn back_to_client(
    ctx: &Context,
    redirect_uri: &str,
    query: &AuthorizeQuery,
    params: &[(&str, &str)],
) -> BrowserAnswer {
    let Ok(mut url) = Url::parse(redirect_uri) else {
        return error_page(ctx, "The redirect URI is malformed.");
    };
    {
        let mut pairs = url.query_pairs_mut();
        for (name, value) in params {
            pairs.append_pair(name, value);
        }
        if let Some(client_state) = &query.state {
            pairs.append_pair("state", client_state);
        }
        pairs.append_pair("iss", &ctx.config.platforms.main);
    }
    BrowserAnswer::Redirect(url.into())
}

fn error_to_client(
    ctx: &Context,
    redirect_uri: &str,
    query: &AuthorizeQuery,
    error: &str,
    description: &str,
) -> BrowserAnswer {
    back_to_client(
        ctx,
        redirect_uri,
        query,
        &[("error", error), ("error_description", description)],
    )
}

/// The request's `prompt` values.
fn prompts(query: &AuthorizeQuery) -> impl Iterator<Item = &str> {
    query
        .prompt
        .as_deref()
        .unwrap_or_default()
        .split(' ')
        .filter(|p| !p.is_empty())
}

/// The site's sign-in screen, coming back to this request afterwards.
fn to_sign_in(ctx: &Context, query: &AuthorizeQuery, fresh_after: Option<i64>) -> BrowserAnswer {
    let mut again = query.clone();
    // The provider remembers "sign in again" itself, so the return does not loop; the other
    // prompts (consent) still hold on the way back.
    let others: Vec<&str> = prompts(query).filter(|p| *p != "login").collect();
    again.prompt = (!others.is_empty()).then(|| others.join(" "));
    if let Some(after) = fresh_after {
        again.ts_after = Some(signed_after(
            ctx,
            after,
            query.client_id.as_deref().unwrap_or_default(),
            query.code_challenge.as_deref().unwrap_or_default(),
        ));
    }
    let main = ctx.config.platforms.main.trim_end_matches('/');
    let mut back = Url::parse(&format!("{main}/oauth2/authorize")).expect("the main platform URL is a URL");
    back.query_pairs_mut().extend_pairs(again.pairs());
    let mut login = Url::parse(&format!("{main}/login")).expect("the main platform URL is a URL");
    login.query_pairs_mut().append_pair("redirect", back.as_str());
    BrowserAnswer::Redirect(login.into())
}

/// The request's client and its redirect URI when both are registered; else the error page
/// (never a redirect to an address the client did not register).
async fn registered(
    ctx: &Context,
    query: &AuthorizeQuery,
) -> crate::error::Result<Result<(clients::Client, String), BrowserAnswer>> {
    let Some(client) = clients::find(&ctx.db, query.client_id.as_deref().unwrap_or_default()).await? else {
        return Ok(Err(error_page(
            ctx,
            "The application that sent you here is not registered.",
        )));
    };
    match query
        .redirect_uri
        .clone()
        .filter(|uri| client.redirect_uris.contains(uri))
    {
        Some(uri) => Ok(Ok((client, uri))),
        None => Ok(Err(error_page(
            ctx,
            "The application asked to return to an address it has not registered.",
        ))),
    }
}

/// `GET /oauth2/authorize`.
/// A request whose query does not read (a parameter given twice, which RFC 6749
/// section 3.1 forbids): named as such, never redirected, since its `redirect_uri` is not known.
pub fn malformed(ctx: &Context) -> BrowserAnswer {
    error_page(
        ctx,
        "The sign-in request could not be read: a parameter is given more than once, or is not text.",
    )
}

/// A `POST /oauth2/authorize/consent` whose form does not read (too large, a parameter given
/// twice): the sign-in's refusal page, since the request it answers cannot be known.
pub fn unreadable_consent(ctx: &Context) -> BrowserAnswer {
    error_page(
        ctx,
        "The consent form could not be read: it is too large, gives a parameter more than once, or is not text. Start the sign-in again from the application.",
    )
}

pub async fn authorize(ctx: &Context, caller: &Browser<'_>, query: AuthorizeQuery) -> BrowserAnswer {
    authorize_inner(ctx, caller, query, false)
        .await
        .unwrap_or_else(BrowserAnswer::from)
}

async fn authorize_inner(
    ctx: &Context,
    caller: &Browser<'_>,
    query: AuthorizeQuery,
    consented: bool,
) -> crate::error::Result<BrowserAnswer> {
    // Until the client and its redirect URI are known good, nothing is sent back to it.
    let (client, redirect_uri) = match registered(ctx, &query).await? {
        Ok(found) => found,
        Err(page) => return Ok(page),
    };
    let fail =
        |error: &str, description: &str| Ok(error_to_client(ctx, &redirect_uri, &query, error, description));
    if query.response_type.as_deref() != Some("code") {
        return fail(
            "unsupported_response_type",
            "Only the code response type is supported",
        );
    }
    let Some(scopes) = parse_scope(query.scope.as_deref()) else {
        return fail("invalid_scope", "The openid scope is required");
    };
    let challenge = query.code_challenge.clone().unwrap_or_default();
    let base64url = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
    if query.code_challenge_method.as_deref() != Some("S256")
        || challenge.len() != 43
        || !challenge.bytes().all(base64url)
    {
        return fail(
            "invalid_request",
            "PKCE with code_challenge_method=S256 is required",
        );
    }
    if query.nonce.as_ref().is_some_and(|n| n.len() > 512)
        || query.state.as_ref().is_some_and(|s| s.len() > 1024)
    {
        return fail("invalid_request", "nonce or state is too long");
    }
    if query
        .nonce
        .as_ref()
        .is_some_and(|n| n.chars().any(char::is_control))
    {
        return fail("invalid_request", "nonce cannot contain control characters");
    }
    let prompts: Vec<&str> = prompts(&query).collect();
    let prompt_none = prompts.contains(&"none");
    if prompt_none && prompts.len() > 1 {
        return fail("invalid_request", "prompt=none cannot be combined");
    }
    let max_age = match query.max_age.as_deref() {
        // Digits past any integer are a very long time too: a century.
        Some(age) => match age.parse::<i64>() {
            Ok(age) if age >= 0 => Some(age.min(MAX_AGE_CAP)),
            _ if !age.is_empty() && age.bytes().all(|b| b.is_ascii_digit()) => Some(MAX_AGE_CAP),
            _ => return fail("invalid_request", "max_age must be a number of seconds"),
        },
        None => None,
    };

    let now = Utc::now();
    // The signed-in session behind the browser's cookie, read with its account in one query.
    let Some(viewer) = sessions::optional(ctx, caller.token).await? else {
        if prompt_none {
            return fail("login_required", "The user is not signed in");
        }
        return Ok(to_sign_in(ctx, &query, None));
    };
    // A hint: a positive answer only for the person it names (a hint that is no ID token of
    // ours names nobody), with `prompt=none` or without (OpenID Connect Core 3.1.2.1: "SHOULD
    // return an error, such as login_required"): a code for someone else would be taken for
    // theirs by a client that trusts its hint.
    if let Some(hint) = query.id_token_hint.as_deref() {
        let named = super::logout::read_hint(ctx, hint).await.map(|hint| hint.sub);
        if named.as_deref() != Some(viewer.user.id.to_string().as_str()) {
            return fail(
                "login_required",
                "The signed-in user is not the one id_token_hint names",
            );
        }
    }
    // Back from the sign-in this request asked for: that sign-in is the fresh one `max_age`
    // wants, however long the trip took (`max_age=0` would otherwise never be met). Only a
    // mark the provider made counts; a forged or foreign one is ignored, so `max_age=0`
    // always asks again.
    let asked_after = query
        .ts_after
        .as_deref()
        .and_then(|value| verified_after(ctx, value, &client.client_id, &challenge));
    let signed_in_at = viewer.signed_in_at;
    let signed_in_since_asked = asked_after.is_some_and(|after| signed_in_at.timestamp_millis() >= after);
    let too_old_for_max_age = !signed_in_since_asked
        && max_age.is_some_and(|age| signed_in_at + chrono::Duration::seconds(age) <= now);
    let before_requested = asked_after.is_some() && !signed_in_since_asked;
    if prompts.contains(&"login") || too_old_for_max_age || before_requested {
        if prompt_none {
            return fail("login_required", "A fresh sign-in is required");
        }
        // Sign in again; only a sign-in from now on counts on the way back.
        return Ok(to_sign_in(ctx, &query, Some(now.timestamp_millis())));
    }

    let scope = scopes.join(" ");
    // `prompt=consent`: the person is asked, whatever they approved before.
    if prompts.contains(&"consent") && !consented {
        return Ok(consent_page(ctx, &client.name, &scopes, &query, &redirect_uri));
    }
    if !client.first_party && !consented {
        let remembered = oauth_consents::Entity::find_by_id((viewer.user.id, client.client_id.clone()))
            .one(&ctx.db)
            .await?
            .is_some_and(|c| scopes.iter().all(|s| c.scope.split(' ').any(|held| held == *s)));
        if !remembered {
            if prompt_none {
                return fail("consent_required", "The user has not approved this application");
            }
            return Ok(consent_page(ctx, &client.name, &scopes, &query, &redirect_uri));
        }
    }

    let code = grants::new_token();
    let stored = oauth_codes::ActiveModel {
        code_hash: Set(grants::key_of(&code)),
        // In the order grants are made, like the keys of their codes and tokens.
        grant_id: Set(Uuid::now_v7()),
        client_id: Set(client.client_id.clone()),
        user_id: Set(viewer.user.id),
        session_id: Set(viewer.session_id),
        redirect_uri: Set(redirect_uri.clone()),
        code_challenge: Set(challenge),
        nonce: Set(query.nonce.clone()),
        scope: Set(scope),
        auth_time: Set(signed_in_at),
        expires_at: Set(now + CODE_TTL),
        used_at: Set(None),
    };
    // Stored by the provider's grouped writer, in one transaction with the codes and
    // exchanges written at the same moment.
    match ctx.issuance.write(Write::Code(stored)).await {
        Ok(_) => Ok(back_to_client(ctx, &redirect_uri, &query, &[("code", &code)])),
        // The sign-in ended between its check and the write: as if it had ended before.
        Err(err) if err.error == "invalid_grant" => Ok(to_sign_in(ctx, &query, None)),
        Err(err) => Ok(BrowserAnswer::Error(err)),
    }
}

/// The consent form's body: the authorize request carried on, and the decision.
#[derive(Debug, Default, Deserialize)]
pub struct ConsentForm {
    #[serde(flatten)]
    pub query: AuthorizeQuery,
    pub decision: Option<String>,
}

/// `POST /oauth2/authorize/consent`: only from the provider's own page (its origin, and the
/// SameSite=Lax session cookie, which a cross-site form does not carry). `origin` is the
/// request's `Origin` header.
pub async fn consent(
    ctx: &Context,
    caller: &Browser<'_>,
    origin: Option<&str>,
    form: ConsentForm,
) -> BrowserAnswer {
    if !from_own_page(ctx, origin) {
        return refused_form(ctx);
    }
    let query = form.query;
    let result = async {
        let (client, redirect_uri) = match registered(ctx, &query).await? {
            Ok(found) => found,
            Err(page) => return Ok(page),
        };
        let Some(viewer) = sessions::optional(ctx, caller.token).await? else {
            return Ok(to_sign_in(ctx, &query, None));
        };
        if form.decision.as_deref() != Some("allow") {
            return Ok(error_to_client(
                ctx,
                &redirect_uri,
                &query,
                "access_denied",
                "The user denied the request",
            ));
        }
        let scope = parse_scope(query.scope.as_deref()).unwrap_or_default().join(" ");
        oauth_consents::Entity::insert(oauth_consents::ActiveModel {
            user_id: Set(viewer.user.id),
            client_id: Set(client.client_id.clone()),
            scope: Set(scope),
            created_at: Set(Utc::now()),
        })
        .on_conflict(
            OnConflict::columns([oauth_consents::Column::UserId, oauth_consents::Column::ClientId])
                .update_columns([oauth_consents::Column::Scope, oauth_consents::Column::CreatedAt])
                .to_owned(),
        )
        .exec(&ctx.db)
        .await?;
        crate::audit::Event::new(
            crate::audit::Kind::ConsentGiven,
            Some(viewer.user.id),
            caller.client,
        )
        .detail(format!("client {}", client.client_id))
        .record(&ctx.db)
        .await?;
        authorize_inner(ctx, caller, query, true).await
    }
    .await;
    result.unwrap_or_else(BrowserAnswer::from)
}

/// Whether a form came from the provider's own pages (its `Origin` is the main platform's).
pub fn from_own_page(ctx: &Context, origin: Option<&str>) -> bool {
    let main = Url::parse(&ctx.config.platforms.main).map(|u| u.origin().ascii_serialization());
    origin.is_some() && main.as_deref().ok() == origin
}
