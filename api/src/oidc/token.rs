//! The token endpoint (authorization code with PKCE, refresh with rotation), userinfo and
//! revocation.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use entity::{oauth_clients, oauth_tokens, sessions, signing_keys, users};
use openidconnect::{
    AccessToken, Audience, AuthorizationCode, IdToken, IdTokenClaims, IssuerUrl, Nonce, UserInfoClaims,
    core::{CoreGenderClaim, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm},
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{
    ACCESS_TTL, OAuthError, REFRESH_TTL, TalentClaims, claims,
    clients::{Client, Credentials},
    grants,
    issuance::{Outcome, Spend, Write},
    keys,
};
use crate::{
    accounts::{sessions as account_sessions, tokens},
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
};

type TalentIdToken =
    IdToken<TalentClaims, CoreGenderClaim, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm>;

/// The form of `POST /oauth2/token`.
#[derive(Debug, Default, Deserialize)]
pub struct TokenForm {
    pub grant_type: Option<String>,
    pub code: Option<String>,
    pub redirect_uri: Option<String>,
    pub code_verifier: Option<String>,
    pub refresh_token: Option<String>,
    pub scope: Option<String>,
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
}

/// RFC 6749 section 5.1's answer, with the ID token.
#[derive(Debug, Serialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub refresh_token: String,
    pub id_token: String,
    pub scope: String,
}

/// What a grant carries from the approval to every token issued under it.
struct Grant {
    grant_id: Uuid,
    user_id: Uuid,
    session_id: Uuid,
    /// Nothing issued under the grant outlives the session's absolute lifetime.
    session_ends_at: DateTime<Utc>,
    /// What this exchange's access and ID tokens are for.
    scope: String,
    /// What the person granted: the new refresh token keeps it, so a refresh that asked for
    /// less does not narrow the later ones (RFC 6749, section 6).
    granted: String,
    auth_time: DateTime<Utc>,
    nonce: Option<String>,
}

/// The longest code or refresh token looked up: the issued ones are far shorter.
const MAX_PRESENTED: usize = 255;

/// The S256 PKCE check: BASE64URL(SHA-256(verifier)) equals the challenge.
fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'));
    well_formed
        && tokens::same(
            &URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
            challenge,
        )
}

/// Revokes every token issued under a grant (a replayed code or refresh token), and records
/// why for the account's owner and the admins.
async fn revoke_grant(
    ctx: &Context,
    grant_id: Uuid,
    user_id: Uuid,
    client_id: &str,
    kind: Kind,
    caller: &ClientInfo,
) -> Result<(), OAuthError> {
    tracing::warn!(%client_id, event = kind.as_str(), "a grant was revoked");
    delete_grant(&ctx.db, grant_id).await?;
    Event::new(kind, Some(user_id), caller)
        .detail(format!("client {client_id}"))
        .record(&ctx.db)
        .await?;
    Ok(())
}

/// Deletes every token issued under a grant.
async fn delete_grant(db: &impl ConnectionTrait, grant_id: Uuid) -> Result<(), OAuthError> {
    oauth_tokens::Entity::delete_many()
        .filter(oauth_tokens::Column::GrantId.eq(grant_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Exchanges a code or a refresh token, for the client the credentials prove.
///
/// # Errors
/// `invalid_client` (401) when the credentials prove no client (checked before anything
/// else); the OAuth errors of RFC 6749 section 5.2.
#[tracing::instrument(skip_all)]
pub async fn exchange(
    ctx: &Context,
    credentials: &Credentials,
    form: TokenForm,
    caller: &ClientInfo,
) -> Result<TokenResponse, OAuthError> {
    match form.grant_type.as_deref() {
        Some("authorization_code") => by_code(ctx, credentials, form, caller).await,
        Some("refresh_token") => by_refresh(ctx, credentials, form, caller).await,
        Some(_) => Err(refuse(
            ctx,
            credentials,
            OAuthError::new(
                "unsupported_grant_type",
                "Only authorization_code and refresh_token are supported",
            ),
        )
        .await),
        None => Err(refuse(
            ctx,
            credentials,
            OAuthError::invalid_request("grant_type is required"),
        )
        .await),
    }
}

/// What a request that is refused before its client was proved hears: `invalid_client` when
/// the credentials prove no client (that comes first, whatever else is wrong), else `refusal`.
async fn refuse(ctx: &Context, credentials: &Credentials, refusal: OAuthError) -> OAuthError {
    match credentials.authenticate(&ctx.db).await {
        Ok(_) => refusal,
        Err(err) => err,
    }
}

/// The client an exchange's credentials proved, with its current signing key as the query
/// that found the grant read it (`None`: none was found, or none exists yet).
struct Proved {
    client: Client,
    key: Option<signing_keys::Model>,
}

/// The client the credentials prove, given the client of the code or refresh token that was
/// read and its key. The client is checked before the grant, whatever the grant: credentials
/// naming another client are proved against that client, read alone, and then refused as
/// `spent` says.
async fn prove_client(
    ctx: &Context,
    credentials: &Credentials,
    (grant_client, key): (Option<oauth_clients::Model>, Option<signing_keys::Model>),
    spent: &Spend,
) -> Result<Proved, OAuthError> {
    match grant_client {
        Some(client) if client.client_id == credentials.client_id => Ok(Proved {
            client: credentials.prove(Some(client.into()))?,
            key,
        }),
        _ => Err(refuse(ctx, credentials, spent.invalid()).await),
    }
}

/// The sign-in a grant came from and its account, as the query that found the code or token
/// read them, while it is live (the same rule as the session check: a suspended account's
/// sign-in is not); using the grant counts as using the session.
async fn live_session(
    ctx: &Context,
    session: Option<sessions::Model>,
    user: Option<users::Model>,
) -> Result<(sessions::Model, users::Model), OAuthError> {
    let now = Utc::now();
    let (session, user) = account_sessions::live(&ctx.config, session, user, now)
        .ok_or_else(|| OAuthError::invalid_grant("The sign-in this grant came from has ended"))?;
    account_sessions::touch(&ctx.db, &ctx.config, &session, now).await?;
    Ok((session, user))
}

async fn by_code(
    ctx: &Context,
    credentials: &Credentials,
    form: TokenForm,
    caller: &ClientInfo,
) -> Result<TokenResponse, OAuthError> {
    let Some(code) = form.code.filter(|c| !c.is_empty()) else {
        return Err(refuse(ctx, credentials, OAuthError::invalid_request("code is required")).await);
    };
    // Far longer than any code issued: unknown, without a lookup.
    if code.len() > MAX_PRESENTED {
        return Err(refuse(ctx, credentials, Spend::Code(String::new()).invalid()).await);
    }
    let hash = grants::key_of(&code);
    // One query, shared with the exchanges arriving at the same moment.
    let found = ctx.grants.codes.find(hash.clone()).await?;
    let spent = Spend::Code(hash);
    let invalid = || spent.invalid();
    let Some((row, session, user, grant_client, key)) = found.map(|row| (*row).clone()) else {
        return Err(refuse(ctx, credentials, invalid()).await);
    };
    let proved = prove_client(ctx, credentials, (grant_client, key), &spent).await?;
    let client = &proved.client;
    // Everything is checked before the code is claimed: a request that is refused (another
    // client, a wrong verifier or redirect URI) does not burn it.
    if row.used_at.is_some() {
        return Err(refuse_replay(ctx, client, &spent, row.grant_id, row.user_id, caller).await);
    }
    if row.expires_at <= Utc::now() {
        return Err(invalid());
    }
    if form.redirect_uri.as_deref() != Some(row.redirect_uri.as_str()) {
        return Err(OAuthError::invalid_grant(
            "redirect_uri does not match the authorization request",
        ));
    }
    let verifier = form.code_verifier.unwrap_or_default();
    if !pkce_matches(&verifier, &row.code_challenge) {
        return Err(OAuthError::invalid_grant("The PKCE code_verifier does not match"));
    }
    let (session, user) = live_session(ctx, session, user).await?;
    let grant = Grant {
        grant_id: row.grant_id,
        user_id: row.user_id,
        session_id: row.session_id,
        session_ends_at: session.expires_at,
        granted: row.scope.clone(),
        scope: row.scope,
        auth_time: row.auth_time,
        nonce: row.nonce,
    };
    // Single use: the first exchange claims it; a second one revokes what the first got.
    issue(ctx, &proved, &grant, &user, Some(&code), &spent, caller).await
}

async fn by_refresh(
    ctx: &Context,
    credentials: &Credentials,
    form: TokenForm,
    caller: &ClientInfo,
) -> Result<TokenResponse, OAuthError> {
    let Some(presented) = form.refresh_token.filter(|t| !t.is_empty()) else {
        return Err(refuse(
            ctx,
            credentials,
            OAuthError::invalid_request("refresh_token is required"),
        )
        .await);
    };
    if presented.len() > MAX_PRESENTED {
        return Err(refuse(ctx, credentials, Spend::Refresh(String::new()).invalid()).await);
    }
    let hash = grants::key_of(&presented);
    let found = ctx.grants.refresh_tokens.find(hash.clone()).await?;
    let spent = Spend::Refresh(hash);
    let invalid = || spent.invalid();
    let Some((row, session, user, grant_client, key)) = found.map(|row| (*row).clone()) else {
        return Err(refuse(ctx, credentials, invalid()).await);
    };
    let proved = prove_client(ctx, credentials, (grant_client, key), &spent).await?;
    let client = &proved.client;
    // Rotation: each refresh token works once; a second use means it was stolen (or the
    // client is broken), and the whole grant is revoked.
    if row.used_at.is_some() {
        return Err(refuse_replay(ctx, client, &spent, row.grant_id, row.user_id, caller).await);
    }
    if row.expires_at <= Utc::now() {
        return Err(invalid());
    }
    // A narrower scope may be asked for, never a wider one, and always with `openid`: every
    // answer carries an ID token. None asked for (or an empty one) is the whole grant.
    let mut asked: Vec<&str> = Vec::new();
    for scope in form.scope.as_deref().unwrap_or_default().split_whitespace() {
        if !asked.contains(&scope) {
            asked.push(scope);
        }
    }
    let scope = if asked.is_empty() {
        row.scope.clone()
    } else {
        let held: Vec<&str> = row.scope.split(' ').collect();
        if asked.iter().any(|s| !held.contains(s)) {
            return Err(OAuthError::new(
                "invalid_scope",
                "The scope exceeds the original grant",
            ));
        }
        if !asked.contains(&"openid") {
            return Err(OAuthError::new("invalid_scope", "The scope must include openid"));
        }
        asked.join(" ")
    };
    let (session, user) = live_session(ctx, session, user).await?;
    let grant = Grant {
        grant_id: row.grant_id,
        user_id: row.user_id,
        session_id: row.session_id,
        session_ends_at: session.expires_at,
        scope,
        granted: row.scope,
        auth_time: row.auth_time,
        nonce: None,
    };
    // Claimed last, once every check has passed.
    issue(ctx, &proved, &grant, &user, None, &spent, caller).await
}

/// A code or refresh token presented after it was spent (stolen, or a broken client): the
/// whole grant is revoked, and the answer is the refusal an unknown one gets.
async fn refuse_replay(
    ctx: &Context,
    client: &Client,
    spent: &Spend,
    grant_id: Uuid,
    user_id: Uuid,
    caller: &ClientInfo,
) -> OAuthError {
    match revoke_grant(ctx, grant_id, user_id, &client.client_id, spent.replay(), caller).await {
        Ok(()) => spent.invalid(),
        Err(err) => err,
    }
}

/// The access or refresh token row of a grant, as stored, for `scope`.
fn token_row(
    client: &Client,
    grant: &Grant,
    (kind, token, expires_at, scope): (&str, &str, DateTime<Utc>, &str),
    now: DateTime<Utc>,
) -> oauth_tokens::ActiveModel {
    oauth_tokens::ActiveModel {
        token_hash: Set(grants::key_of(token)),
        kind: Set(kind.to_owned()),
        grant_id: Set(grant.grant_id),
        client_id: Set(client.client_id.clone()),
        user_id: Set(grant.user_id),
        session_id: Set(grant.session_id),
        scope: Set(scope.to_owned()),
        auth_time: Set(grant.auth_time),
        nonce: Set(grant.nonce.clone()),
        created_at: Set(now),
        expires_at: Set(expires_at),
        used_at: Set(None),
    }
}

/// Signs the ID token, then spends the code or refresh token and stores the new tokens in one
/// transaction (shared with the exchanges writing at the same moment, see [`super::issuance`]): the
/// client gets both tokens and the old one is spent, or nothing changed. When another
/// exchange spent it first, this one is a replay. Signing comes first, so no write lock is
/// held while it runs.
async fn issue(
    ctx: &Context,
    proved: &Proved,
    grant: &Grant,
    user: &users::Model,
    code: Option<&str>,
    spent: &Spend,
    caller: &ClientInfo,
) -> Result<TokenResponse, OAuthError> {
    let now = Utc::now();
    let access = grants::new_token();
    let refresh = grants::new_token();
    let client = &proved.client;
    let id_token = id_token(ctx, proved, grant, user, &access, code).await?;
    let ends = grant.session_ends_at;
    let write = Write::Exchange {
        spend: spent.clone(),
        tokens: [
            // The access token is for what was asked; the refresh token keeps the whole grant.
            (
                "access",
                access.as_str(),
                (now + ACCESS_TTL).min(ends),
                grant.scope.as_str(),
            ),
            (
                "refresh",
                refresh.as_str(),
                (now + REFRESH_TTL).min(ends),
                grant.granted.as_str(),
            ),
        ]
        .map(|issued| token_row(client, grant, issued, now)),
    };
    if ctx.issuance.write(write).await? == Outcome::AlreadySpent {
        return Err(refuse_replay(ctx, client, spent, grant.grant_id, grant.user_id, caller).await);
    }
    Ok(TokenResponse {
        access_token: access,
        token_type: "Bearer",
        expires_in: ACCESS_TTL.num_seconds(),
        refresh_token: refresh,
        id_token,
        scope: grant.scope.clone(),
    })
}

fn issuer(ctx: &Context) -> Result<IssuerUrl, OAuthError> {
    IssuerUrl::new(ctx.config.platforms.main.clone()).map_err(|_| OAuthError::server_error())
}

async fn id_token(
    ctx: &Context,
    Proved { client, key }: &Proved,
    grant: &Grant,
    user: &users::Model,
    access: &str,
    code: Option<&str>,
) -> Result<String, OAuthError> {
    let now = Utc::now();
    let extra = claims::talent(&ctx.db, user, &grant.scope, Some(grant.session_id)).await?;
    let claims = IdTokenClaims::new(
        issuer(ctx)?,
        vec![Audience::new(client.client_id.clone())],
        now + ACCESS_TTL,
        now,
        claims::standard(user, &grant.scope),
        extra,
    )
    .set_auth_time(Some(grant.auth_time))
    .set_nonce(grant.nonce.clone().map(Nonce::new));
    let key = keys::current_as_read(&ctx.db, &ctx.vault, client.id_token_alg.as_str(), key.as_ref()).await?;
    let access = AccessToken::new(access.to_owned());
    let code = code.map(|c| AuthorizationCode::new(c.to_owned()));
    let token =
        TalentIdToken::new(claims, key.as_ref(), key.alg(), Some(&access), code.as_ref()).map_err(|err| {
            tracing::error!(error = %err, "ID token signing failed");
            OAuthError::server_error()
        })?;
    Ok(token.to_string())
}

/// The claims of `GET|POST /oauth2/userinfo` for a live access token.
///
/// # Errors
/// `invalid_token` (401) for a missing, unknown, expired or revoked token.
#[tracing::instrument(skip_all)]
pub async fn userinfo(
    ctx: &Context,
    access: Option<&str>,
) -> Result<UserInfoClaims<TalentClaims, CoreGenderClaim>, OAuthError> {
    let access = access
        .filter(|t| !t.is_empty() && t.len() < 256)
        .ok_or_else(OAuthError::invalid_token)?;
    let token = oauth_tokens::Entity::find_by_id(grants::key_of(access))
        .filter(oauth_tokens::Column::Kind.eq("access"))
        .one(&ctx.db)
        .await?
        .filter(|token| token.expires_at > Utc::now())
        .ok_or_else(OAuthError::invalid_token)?;
    // The session check's rule: an idle, expired or suspended sign-in answers nothing.
    let (_, user) = account_sessions::find_live(&ctx.db, &ctx.config, token.session_id)
        .await?
        .ok_or_else(OAuthError::invalid_token)?;
    let extra = claims::talent(&ctx.db, &user, &token.scope, None).await?;
    Ok(UserInfoClaims::new(claims::standard(&user, &token.scope), extra))
}

/// RFC 7009: revokes a token of this client; a refresh token takes its whole grant with it.
/// Unknown tokens are not an error; another client's token is left alone and the request is
/// refused (section 2.1: "the client is informed of the error").
///
/// # Errors
/// `unauthorized_client` (400) for another client's token; a database failure.
#[tracing::instrument(skip_all)]
pub async fn revoke(ctx: &Context, client: &Client, token: &str) -> Result<(), OAuthError> {
    let Some(row) = oauth_tokens::Entity::find_by_id(grants::key_of(token))
        .one(&ctx.db)
        .await?
    else {
        return Ok(());
    };
    if row.client_id != client.client_id {
        return Err(OAuthError::new(
            "unauthorized_client",
            "The token was not issued to this client",
        ));
    }
    if row.kind == "refresh" {
        delete_grant(&ctx.db, row.grant_id).await
    } else {
        oauth_tokens::Entity::delete_by_id(row.token_hash)
            .exec(&ctx.db)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::pkce_matches;

    #[test]
    fn pkce_follows_rfc_7636_appendix_b() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert!(pkce_matches(
            verifier,
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
        assert!(!pkce_matches(
            "short",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
        assert!(!pkce_matches(
            &verifier.replace('d', "e"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
    }
}
