//! Talent Suite as an OpenID Provider (OpenID Connect Core 1.0 with Discovery, OAuth 2.0 with
//! PKCE and token revocation, RP-initiated and back-channel logout), so Hire, Campus, Career
//! and partner applications sign people in with an ordinary OpenID Connect library.
//!
//! The provider's answers use the OAuth formats (`{"error": "invalid_grant", …}`), not the
//! API envelope. Codes and tokens are random values stored as their SHA-256; ID tokens are
//! signed with keys kept in the database (see [`keys`]).

pub mod authorize;
pub mod backchannel;
pub mod claims;
pub mod clients;
pub mod grants;
pub mod issuance;
pub mod keys;
pub mod logout;
pub mod pages;
pub mod token;

use chrono::Duration;
use openidconnect::{AdditionalClaims, AdditionalProviderMetadata};
use serde::{Deserialize, Serialize};

/// An authorization code lives this long.
pub const CODE_TTL: Duration = Duration::seconds(60);
/// Access tokens (and ID tokens) live this long.
pub const ACCESS_TTL: Duration = Duration::minutes(10);
/// Refresh tokens live this long, and never longer than the session that approved them.
pub const REFRESH_TTL: Duration = Duration::days(30);

/// The scopes a client may ask for.
pub const SCOPES: [&str; 4] = ["openid", "email", "profile", "organizations"];

/// Claims beyond OpenID Connect's standard ones, in ID tokens and userinfo.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
pub struct TalentClaims {
    /// `career`, `campus`, `hire` or `admin`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub talent_role: Option<String>,
    /// The provider session, for back-channel logout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
    /// With the `organizations` scope: each organization the person belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organizations: Option<Vec<OrganizationClaim>>,
}

impl AdditionalClaims for TalentClaims {}

/// One organization in the `organizations` claim.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct OrganizationClaim {
    pub id: String,
    pub name: String,
    /// `hire` or `campus`.
    pub kind: String,
    /// `owner`, `admin` or `member`.
    pub role: String,
}

/// Discovery fields the core metadata type leaves to extensions.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct ProviderExtras {
    pub code_challenge_methods_supported: Vec<String>,
    pub end_session_endpoint: String,
    pub revocation_endpoint: String,
    pub revocation_endpoint_auth_methods_supported: Vec<String>,
    pub backchannel_logout_supported: bool,
    pub backchannel_logout_session_supported: bool,
    /// RFC 9207: the authorization response carries `iss`.
    pub authorization_response_iss_parameter_supported: bool,
}

impl AdditionalProviderMetadata for ProviderExtras {}

/// An OAuth 2.0 error answer: RFC 6749 section 5.2's `error` and `error_description`.
/// `http::error` gives it its status and headers.
#[derive(Debug, Clone)]
pub struct OAuthError {
    pub error: &'static str,
    pub description: String,
}

impl OAuthError {
    pub fn new(error: &'static str, description: impl Into<String>) -> Self {
        Self {
            error,
            description: description.into(),
        }
    }

    pub fn invalid_request(description: impl Into<String>) -> Self {
        Self::new("invalid_request", description)
    }

    pub fn invalid_grant(description: impl Into<String>) -> Self {
        Self::new("invalid_grant", description)
    }

    pub fn invalid_client() -> Self {
        Self::new("invalid_client", "Client authentication failed")
    }

    pub fn invalid_token() -> Self {
        Self::new("invalid_token", "The access token is invalid or expired")
    }

    pub fn server_error() -> Self {
        Self::new("server_error", "Something went wrong")
    }
}

impl From<crate::error::Error> for OAuthError {
    fn from(err: crate::error::Error) -> Self {
        match err {
            crate::error::Error::Unavailable | crate::error::Error::Busy => Self::new(
                "temporarily_unavailable",
                "The service is busy; try again shortly",
            ),
            crate::error::Error::Internal(cause) => {
                // The cause, which the answer must not carry: the log is where it is read.
                tracing::error!(error = ?cause, "OpenID Provider request failed");
                Self::server_error()
            }
            other => {
                tracing::error!(error = %other, "OpenID Provider request failed");
                Self::server_error()
            }
        }
    }
}

impl From<sea_orm::DbErr> for OAuthError {
    fn from(err: sea_orm::DbErr) -> Self {
        crate::error::Error::from(err).into()
    }
}

/// What a browser-facing endpoint of the provider (authorize, consent, logout) answers;
/// `http::oidc` turns it into a response.
#[derive(Debug)]
pub enum BrowserAnswer {
    /// Send the browser on to this address.
    Redirect(String),
    /// One of the provider's own pages (see [`pages`]).
    Page(pages::Page),
    /// An OAuth error in its JSON format (the database failed).
    Error(OAuthError),
    /// The answer, and the browser's session cookie cleared with it.
    SignedOut(Box<BrowserAnswer>),
}

impl From<crate::error::Error> for BrowserAnswer {
    fn from(err: crate::error::Error) -> Self {
        Self::Error(err.into())
    }
}

/// The requested scopes we know, in a stable order; `openid` must be among them.
pub fn parse_scope(scope: Option<&str>) -> Option<Vec<&'static str>> {
    let asked: Vec<&str> = scope.unwrap_or_default().split_whitespace().collect();
    if !asked.contains(&"openid") {
        return None;
    }
    Some(SCOPES.iter().copied().filter(|s| asked.contains(s)).collect())
}
