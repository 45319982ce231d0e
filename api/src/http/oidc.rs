//! The OpenID Provider's routes, at the site's root (the issuer is `MAIN_PLATFORM_URL`).

use axum::{
    Form, Json, Router,
    extract::{DefaultBodyLimit, Query, State, rejection::FormRejection},
    http::{HeaderMap, HeaderValue, Method, header},
    response::{IntoResponse, Response},
    routing::{any, get, post},
};
use openidconnect::{
    AuthUrl, IssuerUrl, JsonWebKeySetUrl, ProviderMetadata, ResponseTypes, Scope, TokenUrl, UserInfoUrl,
    core::{
        CoreAuthDisplay, CoreClaimName, CoreClaimType, CoreClientAuthMethod, CoreGrantType, CoreJsonWebKey,
        CoreJweContentEncryptionAlgorithm, CoreJweKeyManagementAlgorithm, CoreJwsSigningAlgorithm,
        CoreResponseMode, CoreResponseType, CoreSubjectIdentifierType,
    },
};
use serde::Deserialize;
use tower_http::cors::{AllowOrigin, Any, CorsLayer};

use super::oidc_browser::{origin, respond};
use crate::{
    client::ClientInfo,
    http::caller::Caller,
    oidc::{
        OAuthError, ProviderExtras, SCOPES,
        authorize::{self, AuthorizeQuery, ConsentForm},
        clients::{self, Credentials},
        keys,
        logout::{self, LogoutQuery},
        token::{self, TokenForm},
    },
    state::AppState,
};

type Metadata = ProviderMetadata<
    ProviderExtras,
    CoreAuthDisplay,
    CoreClientAuthMethod,
    CoreClaimName,
    CoreClaimType,
    CoreGrantType,
    CoreJweContentEncryptionAlgorithm,
    CoreJweKeyManagementAlgorithm,
    CoreJsonWebKey,
    CoreResponseMode,
    CoreResponseType,
    CoreSubjectIdentifierType,
>;

pub fn router(state: &AppState) -> Router<AppState> {
    // Public metadata and userinfo (a bearer token, no cookie) answer any origin.
    let open_cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE]);
    let open = Router::new()
        .route("/.well-known/openid-configuration", get(discovery))
        .route("/oauth2/jwks", get(jwks))
        .route("/oauth2/userinfo", get(userinfo_get).post(userinfo_post))
        .method_not_allowed_fallback(wrong_method)
        .layer(open_cors);
    // Token and revocation answer only the origins of registered redirect URIs (a public
    // client running in its own page), never with credentials.
    let db = state.db.clone();
    let client_cors = CorsLayer::new()
        .allow_origin(AllowOrigin::async_predicate(move |origin, _| {
            let db = db.clone();
            async move {
                match origin.to_str() {
                    Ok(origin) => clients::is_registered_origin(&db, origin).await.unwrap_or(false),
                    Err(_) => false,
                }
            }
        }))
        .allow_credentials(false)
        .allow_methods([Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE]);
    let for_clients = Router::new()
        .route("/oauth2/token", post(token_endpoint))
        .route("/oauth2/revoke", post(revoke))
        .method_not_allowed_fallback(wrong_method)
        .layer(client_cors);
    Router::new()
        .route("/oauth2/authorize", get(authorize_endpoint).post(authorize_post))
        .route("/oauth2/authorize/consent", post(consent))
        .route("/oauth2/logout", get(logout).post(logout_post))
        // Every answer of the provider's is in the OAuth shape, a wrong method or path too
        // (axum's own 405 is an empty body; the site would answer an unknown path with a page).
        // Each router takes the fallback beneath its CORS layer, which answers preflights.
        .method_not_allowed_fallback(wrong_method)
        .merge(open)
        .merge(for_clients)
        .route("/oauth2/{*rest}", any(unknown_endpoint))
        // The API's bound: no form of the provider's comes near it.
        .layer(DefaultBodyLimit::max(crate::rest::BODY_LIMIT))
}

/// `invalid_request` in the OAuth error shape with a status RFC 6749 has no code of its own for.
fn invalid_request_with(status: axum::http::StatusCode, description: &str) -> Response {
    let mut response = OAuthError::invalid_request(description).into_response();
    *response.status_mut() = status;
    response
}

/// A method the endpoint does not take: 405 (with its `Allow`), in the OAuth error shape.
async fn wrong_method() -> Response {
    invalid_request_with(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "This method is not allowed on this endpoint",
    )
}

/// A path under `/oauth2/` that is no endpoint: 404, in the OAuth error shape.
async fn unknown_endpoint() -> Response {
    invalid_request_with(
        axum::http::StatusCode::NOT_FOUND,
        "There is no such endpoint of the OpenID Provider",
    )
}

fn url(state: &AppState, path: &str) -> String {
    format!("{}{path}", state.config.platforms.main.trim_end_matches('/'))
}

fn no_store(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    response
}

async fn discovery(State(state): State<AppState>) -> Response {
    let metadata = (|| -> Result<Metadata, String> {
        let err = |e: openidconnect::url::ParseError| e.to_string();
        Ok(Metadata::new(
            IssuerUrl::new(state.config.platforms.main.clone()).map_err(err)?,
            AuthUrl::new(url(&state, "/oauth2/authorize")).map_err(err)?,
            JsonWebKeySetUrl::new(url(&state, "/oauth2/jwks")).map_err(err)?,
            vec![ResponseTypes::new(vec![CoreResponseType::Code])],
            vec![CoreSubjectIdentifierType::Public],
            vec![
                CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
                CoreJwsSigningAlgorithm::EdDsa,
            ],
            ProviderExtras {
                code_challenge_methods_supported: vec!["S256".to_owned()],
                end_session_endpoint: url(&state, "/oauth2/logout"),
                revocation_endpoint: url(&state, "/oauth2/revoke"),
                revocation_endpoint_auth_methods_supported: vec![
                    "client_secret_basic".to_owned(),
                    "client_secret_post".to_owned(),
                    "none".to_owned(),
                ],
                backchannel_logout_supported: true,
                backchannel_logout_session_supported: true,
                authorization_response_iss_parameter_supported: true,
            },
        )
        // Discovery's defaults say a provider takes `request_uri`; this one reads neither a
        // request object nor a reference to one, so it says so.
        .set_request_parameter_supported(Some(false))
        .set_request_uri_parameter_supported(Some(false))
        .set_token_endpoint(Some(TokenUrl::new(url(&state, "/oauth2/token")).map_err(err)?))
        .set_userinfo_endpoint(Some(
            UserInfoUrl::new(url(&state, "/oauth2/userinfo")).map_err(err)?,
        ))
        .set_scopes_supported(Some(SCOPES.iter().map(|s| Scope::new((*s).to_owned())).collect()))
        .set_grant_types_supported(Some(vec![
            CoreGrantType::AuthorizationCode,
            CoreGrantType::RefreshToken,
        ]))
        .set_response_modes_supported(Some(vec![CoreResponseMode::Query]))
        .set_token_endpoint_auth_methods_supported(Some(vec![
            CoreClientAuthMethod::ClientSecretBasic,
            CoreClientAuthMethod::ClientSecretPost,
            CoreClientAuthMethod::None,
        ]))
        .set_claims_supported(Some(
            [
                "sub",
                "iss",
                "aud",
                "exp",
                "iat",
                "auth_time",
                "nonce",
                "email",
                "email_verified",
                "name",
                "talent_role",
                "sid",
                "organizations",
            ]
            .iter()
            .map(|c| CoreClaimName::new((*c).to_owned()))
            .collect(),
        )))
    })();
    match metadata {
        Ok(metadata) => {
            let mut response = Json(metadata).into_response();
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=300"),
            );
            response
        }
        Err(why) => {
            tracing::error!(error = %why, "discovery document could not be built");
            OAuthError::server_error().into_response()
        }
    }
}

async fn jwks(State(state): State<AppState>) -> Response {
    match keys::published(&state.db, &state.vault).await {
        Ok(set) => {
            let mut response = Json(set).into_response();
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=300"),
            );
            response
        }
        Err(err) => OAuthError::from(err).into_response(),
    }
}

async fn authorize_endpoint(
    State(state): State<AppState>,
    caller: Caller,
    query: Result<Query<AuthorizeQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    match query {
        Ok(Query(query)) => respond(
            &state,
            authorize::authorize(&state, &caller.browser(), query).await,
        ),
        Err(_) => respond(&state, authorize::malformed(&state)),
    }
}

async fn consent(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    form: Result<Form<ConsentForm>, FormRejection>,
) -> Response {
    match form {
        Ok(Form(form)) => respond(
            &state,
            authorize::consent(&state, &caller.browser(), origin(&headers), form).await,
        ),
        // The person clicked Allow or Deny on our page: they get a page, as the other forms do.
        Err(_) => respond(&state, authorize::unreadable_consent(&state)),
    }
}

/// A form whose sender authenticates as a client (token and revocation requests).
trait ClientCredentials {
    fn credentials(&self) -> (Option<&str>, Option<&str>);
}

impl ClientCredentials for TokenForm {
    fn credentials(&self) -> (Option<&str>, Option<&str>) {
        (self.client_id.as_deref(), self.client_secret.as_deref())
    }
}

/// A form past the body limit: 413, in the shape of an OAuth error (RFC 6749 has no code of its
/// own for it), rather than blamed on a parameter.
fn too_large(form: &Result<Form<impl Sized>, FormRejection>) -> Option<Response> {
    let Err(rejection) = form else { return None };
    (rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE).then(|| {
        invalid_request_with(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            super::error::BODY_TOO_LARGE,
        )
    })
}

/// The form, and the client credentials it presents (Basic header, or in the body).
fn credentials_form<T: ClientCredentials>(
    headers: &HeaderMap,
    form: Result<Form<T>, FormRejection>,
) -> Result<(T, Credentials), OAuthError> {
    let form = match form {
        Ok(Form(form)) => form,
        Err(FormRejection::InvalidFormContentType(_)) => {
            return Err(OAuthError::invalid_request(
                "The body must be application/x-www-form-urlencoded",
            ));
        }
        // The type is right, so the body is what does not read: a parameter given twice
        // (RFC 6749, section 3.2, forbids it), or one that is not text.
        Err(_) => {
            return Err(OAuthError::invalid_request(
                "A parameter is given more than once, or is not text",
            ));
        }
    };
    let (id, secret) = form.credentials();
    // A header that is not text is still a header: the client is refused, not anonymous.
    let authorization = headers
        .get(header::AUTHORIZATION)
        .map(|value| value.to_str().unwrap_or_default());
    let credentials = Credentials::of(authorization, id, secret)?;
    Ok((form, credentials))
}

async fn token_endpoint(
    State(state): State<AppState>,
    caller: ClientInfo,
    headers: HeaderMap,
    form: Result<Form<TokenForm>, FormRejection>,
) -> Response {
    if let Some(refused) = too_large(&form) {
        return refused;
    }
    let result = async {
        // The exchange proves the client: it reads it with the code or refresh token.
        let (form, credentials) = credentials_form(&headers, form)?;
        token::exchange(&state, &credentials, form, &caller).await
    };
    match result.await {
        Ok(tokens) => no_store(Json(tokens).into_response()),
        Err(err) => err.into_response(),
    }
}

async fn answer_userinfo(state: &AppState, access: Option<String>) -> Response {
    // No token at all: the challenge alone, without an error code (RFC 6750, section 3.1).
    let Some(access) = access.filter(|token| !token.is_empty()) else {
        return (
            axum::http::StatusCode::UNAUTHORIZED,
            [
                (header::WWW_AUTHENTICATE, "Bearer"),
                (header::CACHE_CONTROL, "no-store"),
            ],
        )
            .into_response();
    };
    match token::userinfo(state, Some(&access)).await {
        Ok(claims) => no_store(Json(claims).into_response()),
        Err(err) => err.into_response(),
    }
}

async fn userinfo_get(State(state): State<AppState>, headers: HeaderMap) -> Response {
    answer_userinfo(&state, super::caller::bearer(&headers)).await
}

#[derive(Debug, Default, Deserialize)]
struct UserinfoForm {
    access_token: Option<String>,
}

async fn userinfo_post(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<UserinfoForm>, FormRejection>,
) -> Response {
    let from_body = form.ok().and_then(|Form(f)| f.access_token);
    answer_userinfo(&state, super::caller::bearer(&headers).or(from_body)).await
}

#[derive(Debug, Default, Deserialize)]
struct RevokeForm {
    token: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
}

impl ClientCredentials for RevokeForm {
    fn credentials(&self) -> (Option<&str>, Option<&str>) {
        (self.client_id.as_deref(), self.client_secret.as_deref())
    }
}

/// The longest token `/oauth2/revoke` looks up.
const MAX_TOKEN_LEN: usize = 255;

async fn revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<RevokeForm>, FormRejection>,
) -> Response {
    if let Some(refused) = too_large(&form) {
        return refused;
    }
    let result = async {
        let (form, credentials) = credentials_form(&headers, form)?;
        let client = credentials.authenticate(&state.db).await?;
        let token = form
            .token
            .filter(|t| !t.is_empty())
            .ok_or_else(|| OAuthError::invalid_request("token is required"))?;
        // Ours are far shorter: a longer one (an ID token, say) is no token of ours, and
        // revoking what is not a token succeeds (RFC 7009, section 2.2).
        if token.len() > MAX_TOKEN_LEN {
            return Ok(());
        }
        token::revoke(&state, &client, &token).await
    };
    match result.await {
        Ok(()) => no_store(().into_response()),
        Err(err) => err.into_response(),
    }
}

async fn logout(
    State(state): State<AppState>,
    caller: Caller,
    query: Result<Query<LogoutQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let query = query.map(|Query(q)| q).unwrap_or_default();
    respond(
        &state,
        logout::logout(&state, &caller.browser(), query, false).await,
    )
}

/// `POST /oauth2/logout`: a client's form (OpenID Connect lets it POST), or the answer of the
/// confirmation page, which counts only from the provider's own page.
async fn logout_post(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    form: Result<Form<LogoutQuery>, FormRejection>,
) -> Response {
    // Answered as every other sign-out the provider cannot act on: a page, for a person.
    let Ok(Form(form)) = form else {
        return respond(&state, logout::unreadable_form(&state));
    };
    let confirmed = form.confirm.as_deref() == Some("yes");
    if confirmed && !authorize::from_own_page(&state, origin(&headers)) {
        return respond(&state, crate::oidc::pages::refused_form(&state));
    }
    respond(
        &state,
        logout::logout(&state, &caller.browser(), form, confirmed).await,
    )
}

/// `POST /oauth2/authorize`: OpenID Connect Core 3.1.2.1 lets a client send the request as a
/// form; it is the same request.
async fn authorize_post(
    State(state): State<AppState>,
    caller: Caller,
    form: Result<Form<AuthorizeQuery>, FormRejection>,
) -> Response {
    let query = form.map(|Form(q)| q).unwrap_or_default();
    respond(
        &state,
        authorize::authorize(&state, &caller.browser(), query).await,
    )
}
