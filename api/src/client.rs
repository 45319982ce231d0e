//! Who is on the other end of a request: its address and user agent, as the throttles, the
//! audit log and the session list see them.

use std::{
    convert::Infallible,
    net::{IpAddr, SocketAddr},
};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderMap, header::USER_AGENT, request::Parts},
};

/// Longest user agent kept; browsers send a few hundred characters.
const MAX_USER_AGENT: usize = 255;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientInfo {
    pub ip: Option<IpAddr>,
    pub user_agent: Option<String>,
}

impl ClientInfo {
    pub fn new(peer: Option<SocketAddr>, headers: &HeaderMap) -> Self {
        let user_agent = headers
            .get(USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(|ua| {
                ua.chars()
                    .filter(|c| !c.is_control())
                    .take(MAX_USER_AGENT)
                    .collect::<String>()
            })
            .filter(|ua| !ua.is_empty());
        Self {
            ip: peer.map(|addr| addr.ip().to_canonical()),
            user_agent,
        }
    }

    /// The address as text, for the audit log and the session list.
    pub fn ip_text(&self) -> Option<String> {
        self.ip.map(|ip| ip.to_string())
    }

    /// The address as a throttle key: the whole address, or "unknown" without one.
    pub fn ip_key(&self) -> String {
        self.ip_text().unwrap_or_else(|| "unknown".to_owned())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientInfo {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0);
        Ok(Self::new(peer, &parts.headers))
    }
}

/// The caller of an API request: its session token (bearer header, else cookie) and who it is.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub token: Option<String>,
    pub client: ClientInfo,
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let client = ClientInfo::from_request_parts(parts, state).await?;
        Ok(Self {
            token: crate::accounts::cookie::token_from_headers(&parts.headers),
            client,
        })
    }
}
