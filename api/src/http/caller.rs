//! The one place that reads who is calling from a request: the client's address (through
//! trusted proxies), its user agent, the device cookie, and the session token from the bearer
//! header or the session cookie.
//!
//! Behind a reverse proxy the socket address is the proxy's. `X-Forwarded-For` is believed
//! only when the socket peer is a trusted proxy (`TRUSTED_PROXIES`), and then the client is
//! the right-most hop that is not a trusted proxy: every hop to its left could have been
//! written by the client itself.

use std::{
    convert::Infallible,
    net::{IpAddr, SocketAddr},
};

use axum::{
    extract::{ConnectInfo, FromRequestParts, Request},
    http::{HeaderMap, header, request::Parts},
};
use ipnet::IpNet;

use crate::client::ClientInfo;

/// Longest user agent kept; browsers send a few hundred characters.
const MAX_USER_AGENT: usize = 255;
const FORWARDED_FOR: &str = "x-forwarded-for";

/// The client of a request from its socket peer and headers, believing `X-Forwarded-For` only
/// from a trusted proxy.
pub fn client_info(peer: Option<SocketAddr>, headers: &HeaderMap, trusted: &[IpNet]) -> ClientInfo {
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| {
            ua.chars()
                .filter(|c| !c.is_control())
                .take(MAX_USER_AGENT)
                .collect::<String>()
        })
        .filter(|ua| !ua.is_empty());
    ClientInfo {
        ip: peer.map(|addr| client_address(addr.ip().to_canonical(), headers, trusted)),
        user_agent,
        device: cookie(headers, crate::accounts::device::NAME).filter(|value| value.len() <= 1024),
    }
}

fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all(FORWARDED_FOR)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) => {
                client = ip.to_canonical();
                if !is_trusted(&client) {
                    break;
                }
            }
            // Garbage to the left of our own proxy: the nearest address we believe stands.
            Err(_) => break,
        }
    }
    client
}

/// Works out the client once per request, for the extractors and the per-address limit.
pub fn resolve(request: &mut Request, trusted: &[IpNet]) {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0);
    let client = client_info(peer, request.headers(), trusted);
    request.extensions_mut().insert(client);
}

impl<S: Send + Sync> FromRequestParts<S> for ClientInfo {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        if let Some(client) = parts.extensions.get::<Self>() {
            return Ok(client.clone());
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0);
        Ok(client_info(peer, &parts.headers, &[]))
    }
}

/// The caller of an API request: its session token (bearer header, else cookie) and who it is.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub token: Option<String>,
    pub client: ClientInfo,
}

impl Caller {
    /// The caller as the provider's browser endpoints take it.
    pub fn browser(&self) -> crate::oidc::authorize::Browser<'_> {
        crate::oidc::authorize::Browser {
            token: self.token.as_deref(),
            client: &self.client,
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let client = ClientInfo::from_request_parts(parts, state).await?;
        Ok(Self {
            token: session_token(&parts.headers),
            client,
        })
    }
}

/// The session token of a request: the bearer header first, then the cookie.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    bearer(headers).or_else(|| cookie(headers, crate::accounts::cookie::NAME))
}

/// The token of an `Authorization: Bearer …` header (RFC 6750; the scheme in any case).
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        // The scheme's name is case-insensitive (RFC 9110, section 11.1).
        .and_then(|v| {
            v.get(..7)
                .filter(|scheme| scheme.eq_ignore_ascii_case("bearer "))
                .map(|_| &v[7..])
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// The value of the non-empty cookie `name` in a request, if any.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, value)| *key == name && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn client(peer: &str, forwarded: Option<&'static str>, trusted: &[&str]) -> String {
        let mut headers = HeaderMap::new();
        if let Some(value) = forwarded {
            headers.insert(FORWARDED_FOR, HeaderValue::from_static(value));
        }
        let trusted: Vec<IpNet> = trusted.iter().map(|t| t.parse().unwrap()).collect();
        let peer = SocketAddr::new(peer.parse().unwrap(), 4000);
        client_info(Some(peer), &headers, &trusted).ip_text().unwrap()
    }

    #[test]
    fn the_header_is_ignored_unless_the_peer_is_a_trusted_proxy() {
        assert_eq!(client("198.51.100.7", Some("1.2.3.4"), &[]), "198.51.100.7");
        assert_eq!(
            client("198.51.100.7", Some("1.2.3.4"), &["10.0.0.0/8"]),
            "198.51.100.7"
        );
    }

    #[test]
    fn the_client_is_the_right_most_hop_that_is_not_a_trusted_proxy() {
        let trusted = ["10.0.0.0/8"];
        assert_eq!(client("10.0.0.2", Some("1.2.3.4"), &trusted), "1.2.3.4");
        // The client wrote "6.6.6.6" itself; our proxy appended the real address.
        assert_eq!(client("10.0.0.2", Some("6.6.6.6, 1.2.3.4"), &trusted), "1.2.3.4");
        assert_eq!(
            client("10.0.0.2", Some("6.6.6.6, 1.2.3.4, 10.0.0.9"), &trusted),
            "1.2.3.4"
        );
        assert_eq!(
            client("10.0.0.2", Some("not-an-ip, 10.0.0.9"), &trusted),
            "10.0.0.9"
        );
        assert_eq!(client("10.0.0.2", None, &trusted), "10.0.0.2");
    }
}
