//! Who is on the other end of a request: its address and user agent, as the throttles, the
//! audit log and the session list see them.
//!
//! Behind a reverse proxy the socket address is the proxy's. `X-Forwarded-For` is believed
//! only when the socket peer is a trusted proxy (`TRUSTED_PROXIES`), and then the client is
//! the right-most hop that is not a trusted proxy: every hop to its left could have been
//! written by the client itself.

use std::{
    convert::Infallible,
    net::{IpAddr, Ipv6Addr, SocketAddr},
};

use axum::{
    extract::{ConnectInfo, FromRequestParts, Request, State},
    http::{HeaderMap, header::USER_AGENT, request::Parts},
    middleware::Next,
    response::Response,
};
use ipnet::IpNet;

use crate::state::AppState;

/// Longest user agent kept; browsers send a few hundred characters.
const MAX_USER_AGENT: usize = 255;
const FORWARDED_FOR: &str = "x-forwarded-for";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientInfo {
    pub ip: Option<IpAddr>,
    pub user_agent: Option<String>,
    /// The device cookie (see `accounts::device`), as sent.
    pub device: Option<String>,
}

impl ClientInfo {
    pub fn new(peer: Option<SocketAddr>, headers: &HeaderMap, trusted: &[IpNet]) -> Self {
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
            ip: peer.map(|addr| client_address(addr.ip().to_canonical(), headers, trusted)),
            user_agent,
            device: crate::accounts::cookie::read(headers, crate::accounts::device::NAME)
                .filter(|value| value.len() <= 1024),
        }
    }

    /// The address as text, for the audit log and the session list.
    pub fn ip_text(&self) -> Option<String> {
        self.ip.map(|ip| ip.to_string())
    }

    /// The address as a limit counts it: an IPv4 address whole, an IPv6 address by its /64
    /// (one household or device gets a whole /64 and can pick any address in it).
    pub fn ip_key(&self) -> String {
        match self.ip {
            Some(IpAddr::V6(v6)) => {
                let prefix = u128::from(v6) & !((1_u128 << 64) - 1);
                format!("{}/64", Ipv6Addr::from(prefix))
            }
            Some(ip) => ip.to_string(),
            None => "unknown".to_owned(),
        }
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
pub async fn resolve(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0);
    let client = ClientInfo::new(peer, request.headers(), &state.config.trusted_proxies);
    request.extensions_mut().insert(client);
    next.run(request).await
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
        Ok(Self::new(peer, &parts.headers, &[]))
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
        ClientInfo::new(Some(peer), &headers, &trusted).ip_text().unwrap()
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

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        let a = ClientInfo {
            ip: Some("2001:db8:1:2:aaaa::1".parse().unwrap()),
            user_agent: None,
            device: None,
        };
        let b = ClientInfo {
            ip: Some("2001:db8:1:2:bbbb::2".parse().unwrap()),
            user_agent: None,
            device: None,
        };
        assert_eq!(a.ip_key(), "2001:db8:1:2::/64");
        assert_eq!(a.ip_key(), b.ip_key());
        assert_ne!(a.ip_text(), b.ip_text());
        let v4 = ClientInfo {
            ip: Some("::ffff:192.0.2.1".parse::<IpAddr>().unwrap().to_canonical()),
            user_agent: None,
            device: None,
        };
        assert_eq!(v4.ip_key(), "192.0.2.1");
    }
}
