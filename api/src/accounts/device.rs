//! Device cookies (OWASP's "device cookies" against distributed password guessing): a browser
//! that has completed a sign-in to an account carries a value the server signed for that
//! account. Only such a browser passes the email's throttle on an address that has not been
//! failing, so the owner on their own browser is not locked out while a guesser spread over
//! many addresses meets the email's limit.
//!
//! The cookie holds up to five entries (a shared family or campus machine), newest first; an
//! entry is a random nonce and the keyed hash of the account id, its password as it stands and
//! that nonce, so it names no account, cannot be made for another, and dies with the password
//! it was made under: after a reset, a cookie copied before it is any browser's again.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use entity::users;
use rand::{RngCore, rngs::OsRng};

use super::tokens::{Keys, same};
use crate::config::Config;

pub const NAME: &str = "ts_device";
const MAX_ENTRIES: usize = 5;
/// A year: a device that signs in less than yearly is a new device again.
const LIFETIME_SECS: i64 = 365 * 24 * 3600;
const ENTRY_SEPARATOR: char = '~';

fn mac(keys: &Keys, account: &users::Model, nonce: &str) -> String {
    // The stored hash carries its own random salt, so every new password is a new value here.
    let password = account.password_hash.as_deref().unwrap_or_default();
    keys.keyed_hash(&["device", &account.id.to_string(), password, nonce])
}

fn entries(cookie: Option<&str>) -> impl Iterator<Item = (&str, &str)> {
    cookie
        .unwrap_or_default()
        .split(ENTRY_SEPARATOR)
        .take(MAX_ENTRIES)
        .filter_map(|entry| entry.split_once('.'))
}

/// The nonce of the request's device-cookie entry for `account`, when this browser has signed
/// in to it since its password was last set: the entry's own identity, for counting what is
/// tried with it.
pub fn recognised<'a>(keys: &Keys, cookie: Option<&'a str>, account: &users::Model) -> Option<&'a str> {
    entries(cookie)
        .find(|(nonce, signature)| same(signature, &mac(keys, account, nonce)))
        .map(|(nonce, _)| nonce)
}

/// `Set-Cookie` value that adds `account` to the browser's device cookie (first, dropping the
/// oldest entry past five and any older entry for the same account and password, or for the
/// password it `replaced`, which no longer opens anything).
pub fn remember(
    keys: &Keys,
    config: &Config,
    cookie: Option<&str>,
    account: &users::Model,
    replaced: Option<&users::Model>,
) -> String {
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    let nonce = URL_SAFE_NO_PAD.encode(bytes);
    let fresh = format!("{nonce}.{}", mac(keys, account, &nonce));
    let kept = entries(cookie)
        .filter(|(nonce, signature)| {
            std::iter::once(account)
                .chain(replaced)
                .all(|known| !same(signature, &mac(keys, known, nonce)))
        })
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

    /// An account as stored, with `password` for its hash: a row the tests never write.
    fn account(template: &users::Model, password: Option<&str>) -> users::Model {
        users::Model {
            id: uuid::Uuid::new_v4(),
            password_hash: password.map(str::to_owned),
            ..template.clone()
        }
    }

    async fn template() -> users::Model {
        let (_dir, db) = crate::test_support::database().await;
        crate::test_support::account(&db, "device@example.com").await
    }

    fn recognises(keys: &Keys, cookie: Option<&str>, account: &users::Model) -> bool {
        recognised(keys, cookie, account).is_some()
    }

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

    #[tokio::test]
    async fn a_device_is_recognised_for_the_accounts_it_signed_in_to_only() {
        let template = template().await;
        let keys = Keys::new("secret");
        let other_keys = Keys::new("another secret");
        let config = config();
        let (ada, bob) = (
            account(&template, Some("$argon2id$one")),
            account(&template, None),
        );
        let first = value(&remember(&keys, &config, None, &ada, None));
        assert!(recognises(&keys, Some(&first), &ada));
        assert!(!recognises(&keys, Some(&first), &bob));
        assert!(
            !recognises(&other_keys, Some(&first), &ada),
            "made by another server"
        );
        let both = value(&remember(&keys, &config, Some(&first), &bob, None));
        assert!(recognises(&keys, Some(&both), &ada) && recognises(&keys, Some(&both), &bob));
        assert!(!recognises(&keys, Some("forged.value"), &ada));
        assert!(!recognises(&keys, None, &ada));
    }

    #[tokio::test]
    async fn a_new_password_leaves_every_earlier_entry_unknown() {
        let keys = Keys::new("secret");
        let before = account(&template().await, Some("$argon2id$before"));
        let cookie = value(&remember(&keys, &config(), None, &before, None));
        let after = users::Model {
            password_hash: Some("$argon2id$after".to_owned()),
            ..before.clone()
        };
        assert!(recognises(&keys, Some(&cookie), &before));
        assert!(!recognises(&keys, Some(&cookie), &after));
        let first_password = users::Model {
            password_hash: None,
            ..before.clone()
        };
        assert!(!recognises(&keys, Some(&cookie), &first_password));
        // The browser that set the new password gets an entry for it, in place of the dead one.
        let renewed = value(&remember(&keys, &config(), Some(&cookie), &after, Some(&before)));
        assert_eq!(renewed.split('~').count(), 1, "{renewed}");
        assert!(recognises(&keys, Some(&renewed), &after));
    }

    #[tokio::test]
    async fn the_cookie_keeps_five_accounts_and_one_entry_each() {
        let template = template().await;
        let keys = Keys::new("secret");
        let config = config();
        let accounts: Vec<users::Model> = (0..7).map(|_| account(&template, Some("$argon2id$x"))).collect();
        let mut cookie: Option<String> = None;
        for account in &accounts {
            cookie = Some(value(&remember(&keys, &config, cookie.as_deref(), account, None)));
        }
        let again = value(&remember(&keys, &config, cookie.as_deref(), &accounts[6], None));
        assert_eq!(again.split('~').count(), 5);
        assert!(!recognises(&keys, Some(&again), &accounts[1]), "the oldest went");
        assert!(accounts[2..].iter().all(|a| recognises(&keys, Some(&again), a)));
    }
}
