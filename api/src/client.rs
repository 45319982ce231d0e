//! Who is on the other end of a request: its address and user agent, as the throttles, the
//! audit log and the session list see them. `http::caller` reads them from the request.

use std::net::{IpAddr, Ipv6Addr};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientInfo {
    pub ip: Option<IpAddr>,
    pub user_agent: Option<String>,
    /// The device cookie (see `accounts::device`), as sent.
    pub device: Option<String>,
}

impl ClientInfo {
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

#[cfg(test)]
mod tests {
    use super::*;

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
