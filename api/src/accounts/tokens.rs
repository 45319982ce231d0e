//! Session JWTs, random one-time secrets and the hashes they are stored under.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Utc};
use hashlink::LruCache;
use hmac::{Hmac, Mac};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use rand::{Rng, RngCore, rngs::OsRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub sid: String,
    pub role: String,
    pub iat: i64,
    pub exp: i64,
}

/// Seconds a token is still taken past its expiry, for clocks a little apart.
const LEEWAY: i64 = 5;

/// How many checked tokens are remembered: a few thousand people active at once.
const VERIFIED_TOKENS: usize = 4096;

pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    hmac_key: Vec<u8>,
    /// Tokens whose signature this process has checked, with their claims. A browser presents
    /// the same token on every request, and checking it (an HMAC, two base64 and two JSON
    /// parses) was a tenth of a session check's cost. Only the signature check, a function of
    /// the token's bytes and our secret, is remembered: the expiry is checked on every use,
    /// and whether the session still stands is read from the database every time.
    verified: Mutex<LruCache<Box<str>, Claims>>,
}

impl Keys {
    pub fn new(secret: &str) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = LEEWAY.unsigned_abs();
        validation.set_required_spec_claims(&["exp", "sub"]);
        // The outbox, codes and rate-limit keys get their own key, derived from the secret.
        let hmac_key = Sha256::digest(format!("talent-suite/hmac/{secret}")).to_vec();
        Self {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
            validation,
            hmac_key,
            verified: Mutex::new(LruCache::new(VERIFIED_TOKENS)),
        }
    }

    /// # Errors
    /// Only if signing fails, which HS256 with a valid key does not.
    pub fn issue(
        &self,
        user_id: Uuid,
        session_id: Uuid,
        role: &str,
        issued_at: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> anyhow::Result<String> {
        let claims = Claims {
            sub: user_id.to_string(),
            sid: session_id.to_string(),
            role: role.to_owned(),
            iat: issued_at.timestamp(),
            exp: expires_at.timestamp(),
        };
        Ok(jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// The claims of a token this server signed and that has not expired.
    pub fn decode(&self, token: &str) -> Option<Claims> {
        self.decode_at(token, Utc::now().timestamp())
    }

    fn decode_at(&self, token: &str, now: i64) -> Option<Claims> {
        {
            let mut verified = self.verified();
            if let Some(claims) = verified.get(token) {
                if claims.exp + LEEWAY >= now {
                    return Some(claims.clone());
                }
                verified.remove(token);
                return None;
            }
        }
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .ok()?
            .claims;
        self.verified().insert(token.into(), claims.clone());
        Some(claims)
    }

    fn verified(&self) -> std::sync::MutexGuard<'_, LruCache<Box<str>, Claims>> {
        self.verified.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A keyed hash: short secrets (six-digit codes) stay unguessable even if the table leaks.
    pub fn keyed_hash(&self, parts: &[&str]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.hmac_key).expect("HMAC takes any key length");
        for part in parts {
            mac.update(part.as_bytes());
            mac.update(b"\x1f");
        }
        hex::encode(mac.finalize().into_bytes())
    }
}

/// 32 random bytes from the OS, URL-safe: a reset link's token.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Six uniformly random digits from the OS generator.
pub fn six_digit_code() -> String {
    format!("{:06}", OsRng.gen_range(0..1_000_000))
}

/// SHA-256 in hex: enough for a 256-bit random token.
pub fn sha256_hex(value: &str) -> String {
    hex::encode(Sha256::digest(value.as_bytes()))
}

/// Compares two hashes without leaking where they differ.
pub fn same(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session token issued at `at`, good for an hour.
    fn issued(keys: &Keys, at: DateTime<Utc>) -> String {
        keys.issue(
            Uuid::new_v4(),
            Uuid::new_v4(),
            "career",
            at,
            at + chrono::Duration::hours(1),
        )
        .unwrap()
    }

    #[test]
    fn a_token_round_trips_and_a_tampered_one_does_not() {
        let keys = Keys::new("secret");
        let now = Utc::now();
        let token = issued(&keys, now);
        assert!(keys.decode(&token).is_some());
        assert!(Keys::new("other").decode(&token).is_none());
        let mut tampered = token.clone();
        tampered.pop();
        assert!(keys.decode(&tampered).is_none());
    }

    #[test]
    fn an_expired_token_is_refused() {
        let keys = Keys::new("secret");
        let past = Utc::now() - chrono::Duration::hours(2);
        let token = issued(&keys, past);
        assert!(keys.decode(&token).is_none());
    }

    #[test]
    fn a_token_checked_once_is_still_refused_once_it_has_expired() {
        let keys = Keys::new("secret");
        let now = Utc::now();
        let token = issued(&keys, now);
        assert!(keys.decode(&token).is_some());
        // The second check is answered from memory; it still reads the expiry.
        assert!(keys.decode(&token).is_some());
        let later = (now + chrono::Duration::hours(2)).timestamp();
        assert!(keys.decode_at(&token, later).is_none());
        // A look-alike of a remembered token is checked afresh, and refused.
        let mut tampered = token.clone();
        tampered.pop();
        assert!(keys.decode(&tampered).is_none());
    }

    #[test]
    fn codes_are_six_digits_and_tokens_are_long() {
        for _ in 0..100 {
            let code = six_digit_code();
            assert_eq!(code.len(), 6);
            assert!(code.chars().all(|c| c.is_ascii_digit()));
        }
        assert!(random_token().len() >= 43);
        assert_ne!(random_token(), random_token());
    }
}
