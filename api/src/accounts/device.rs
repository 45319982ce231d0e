//! Device cookies (OWASP's "device cookies" against distributed password guessing): a browser
//! that has completed a sign-in to an account carries a value the server signed for that
//! account. Only such a browser passes the email's throttle on an address that has not been
//! failing, so the owner on their own browser is not locked out while a guesser spread over
//! many addresses meets the email's limit.
//!
//! The cookie holds up to five entries (a shared family or campus machine), newest first; an
//! entry is a random nonce and the keyed hash of the account id and that nonce, so it names
//! no account and cannot be made for another.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::{RngCore, rngs::OsRng};
use uuid::Uuid;

use super::tokens::{Keys, same};
use crate::config::Config;

pub const NAME: &str = "ts_device";
const MAX_ENTRIES: usize = 5;
/// A year: a device that signs in less than yearly is a new device again.
const LIFETIME_SECS: i64 = 365 * 24 * 3600;
const ENTRY_SEPARATOR: char = '~';

fn mac(keys: &Keys, user_id: Uuid, nonce: &str) -> String {
    keys.keyed_hash(&["device", &user_id.to_string(), nonce])
}

fn entries(cookie: Option<&str>) -> impl Iterator<Item = (&str, &str)> {
    cookie
        .unwrap_or_default()
        .split(ENTRY_SEPARATOR)
        .take(MAX_ENTRIES)
        .filter_map(|entry| entry.split_once('.'))
}

/// The nonce of the request's device-cookie entry for `user_id`, when this browser has signed
/// in to that account before: the entry's own identity, for counting what is tried with it.
pub fn recognised<'a>(keys: &Keys, cookie: Option<&'a str>, user_id: Uuid) -> Option<&'a str> {
    entries(cookie)
        .find(|(nonce, signature)| same(signature, &mac(keys, user_id, nonce)))
        .map(|(nonce, _)| nonce)
}

/// Whether the request's device cookie says this browser has signed in to `user_id` before.
pub fn recognises(keys: &Keys, cookie: Option<&str>, user_id: Uuid) -> bool {
    recognised(keys, cookie, user_id).is_some()
}

/// `Set-Cookie` value that adds `user_id` to the browser's device cookie (first, dropping the
/// oldest entry past five and any older entry for the same account).
pub fn remember(keys: &Keys, config: &Config, cookie: Option<&str>, user_id: Uuid) -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    let nonce = URL_SAFE_NO_PAD.encode(bytes);
    let fresh = format!("{nonce}.{}", mac(keys, user_id, &nonce));
    let kept = entries(cookie)
        .filter(|(nonce, signature)| !same(signature, &mac(keys, user_id, nonce)))
        .filter(|(nonce, signature)| {
            // Only values of our own shape go back into the cookie.
            nonce.len() == 22
                && signature.len() == 64
                && nonce
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                && signature.bytes().all(|b| b.is_ascii_hexdigit())
        })
        .take(MAX_ENTRIES - 1)
        .map(|(nonce, signature)| format!("{nonce}.{signature}"));
    let value = std::iter::once(fresh).chain(kept).collect::<Vec<_>>().join("~");
    // Sent only to the API's sign-in calls; never shared with the platform sites.
    let mut set = format!("{NAME}={value}; Path=/api; Max-Age={LIFETIME_SECS}; HttpOnly; SameSite=Lax");
    if !config.env.is_local() {
        set.push_str("; Secure");
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(set_cookie: &str) -> String {
        set_cookie
            .strip_prefix("ts_device=")
            .and_then(|rest| rest.split(';').next())
            .unwrap()
            .to_owned()
    }

    fn config() -> Config {
        let vars: std::collections::HashMap<&str, &str> = [
            ("APP_ENV", "local"),
            ("APP_NAME", "Talent Suite"),
            ("JWT_SECRET", "x"),
            ("MAIN_PLATFORM_URL", "http://localhost:8080"),
            ("HIRE_PLATFORM_URL", "http://localhost:8081"),
            ("CAMPUS_PLATFORM_URL", "http://localhost:8082"),
            ("CAREER_PLATFORM_URL", "http://localhost:8083"),
        ]
        .into();
        Config::from_lookup(|name| vars.get(name).map(|v| (*v).to_owned())).unwrap()
    }

    #[test]
    fn a_device_is_recognised_for_the_accounts_it_signed_in_to_only() {
        let keys = Keys::new("secret");
        let other_keys = Keys::new("another secret");
        let config = config();
        let (ada, bob) = (Uuid::new_v4(), Uuid::new_v4());
        let first = value(&remember(&keys, &config, None, ada));
        assert!(recognises(&keys, Some(&first), ada));
        assert!(!recognises(&keys, Some(&first), bob));
        assert!(
            !recognises(&other_keys, Some(&first), ada),
            "made by another server"
        );
        let both = value(&remember(&keys, &config, Some(&first), bob));
        assert!(recognises(&keys, Some(&both), ada) && recognises(&keys, Some(&both), bob));
        assert!(!recognises(&keys, Some("forged.value"), ada));
        assert!(!recognises(&keys, None, ada));
    }

    #[test]
    fn the_cookie_keeps_five_accounts_and_one_entry_each() {
        let keys = Keys::new("secret");
        let config = config();
        let ids: Vec<Uuid> = (0..7).map(|_| Uuid::new_v4()).collect();
        let mut cookie: Option<String> = None;
        for id in &ids {
            cookie = Some(value(&remember(&keys, &config, cookie.as_deref(), *id)));
        }
        let again = value(&remember(&keys, &config, cookie.as_deref(), ids[6]));
        assert_eq!(again.split('~').count(), 5);
        assert!(!recognises(&keys, Some(&again), ids[1]), "the oldest went");
        assert!(ids[2..].iter().all(|id| recognises(&keys, Some(&again), *id)));
    }
}
