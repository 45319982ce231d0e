//! The provider's signing keys: an RSA key (RS256, what every client supports) and an
//! Ed25519 key (EdDSA, offered), kept in the database so every instance signs and publishes
//! the same ones. `api signing-key rotate` retires the current keys and makes new ones; a
//! retired key stays in the JWKS until the tokens it signed have expired.
//!
//! The private keys are sealed at rest (AES-256-GCM under `KEY_ENCRYPTION_KEY`, the key id as
//! associated data), so a reader of the database or a backup cannot mint ID tokens. At start
//! every key is sealed again under the current key: one sealed with a previous key
//! (`KEY_ENCRYPTION_KEY_PREVIOUS`) or stored before sealing existed.

use aes_gcm::{
    Aes256Gcm, KeyInit, Nonce,
    aead::{Aead, Payload},
};
use base64::{
    Engine,
    engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD},
};
use chrono::Utc;
use entity::signing_keys;
use openidconnect::{
    JsonWebKeyId, PrivateSigningKey, SigningError,
    core::{
        CoreEdDsaPrivateSigningKey, CoreJsonWebKey, CoreJsonWebKeySet, CoreJwsSigningAlgorithm,
        CoreRsaPrivateSigningKey,
    },
};
use rand::{RngCore, rngs::OsRng};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use super::ACCESS_TTL;
use crate::{
    config::KeyEncryptionKeys,
    error::{Error, Result},
};

pub const RS256: &str = "RS256";
pub const EDDSA: &str = "EdDSA";

/// How a sealed key starts in the `private_pem` column: a version, then base64 of the nonce
/// and the ciphertext.
const SEALED: &str = "sealed:v1:";
const NONCE_LEN: usize = 12;

/// Seals and opens the private keys with the key-encryption keys.
pub struct Vault {
    current: Aes256Gcm,
    previous: Vec<Aes256Gcm>,
    /// The keys opened so far, ready to sign, by key id: a key id's key never changes, so a
    /// token costs the one query for the current key id and no unsealing or parsing.
    opened: Mutex<HashMap<String, Arc<SigningKey>>>,
}

/// Rotations are rare and retired keys are pruned; past this many, the opened keys are
/// forgotten and opened again as they are asked for.
const MAX_OPENED: usize = 32;

impl Vault {
    pub fn new(keys: &KeyEncryptionKeys) -> Self {
        let cipher = |key: &[u8; 32]| Aes256Gcm::new(key.into());
        Self {
            current: cipher(&keys.current),
            previous: keys.previous.iter().map(cipher).collect(),
            opened: Mutex::default(),
        }
    }

    /// The key of `row`, opened and parsed once per key id.
    fn signing_key(&self, row: &signing_keys::Model) -> Result<Arc<SigningKey>> {
        if let Some(key) = self.opened().get(&row.kid) {
            return Ok(Arc::clone(key));
        }
        let key = Arc::new(SigningKey::from_row(row, self)?);
        let mut opened = self.opened();
        if opened.len() >= MAX_OPENED {
            opened.clear();
        }
        opened.insert(row.kid.clone(), Arc::clone(&key));
        Ok(key)
    }

    fn opened(&self) -> MutexGuard<'_, HashMap<String, Arc<SigningKey>>> {
        self.opened.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn seal(&self, kid: &str, pem: &str) -> Result<String> {
        let mut nonce = [0u8; NONCE_LEN];
        OsRng.fill_bytes(&mut nonce);
        let sealed = self
            .current
            .encrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: pem.as_bytes(),
                    aad: kid.as_bytes(),
                },
            )
            .map_err(|_| Error::internal(anyhow::anyhow!("signing key {kid} could not be sealed")))?;
        let mut stored = nonce.to_vec();
        stored.extend_from_slice(&sealed);
        Ok(format!("{SEALED}{}", STANDARD.encode(stored)))
    }

    /// The PEM of a stored key, and whether it should be sealed again with the current key
    /// (it was plain, or sealed with a previous key).
    fn open(&self, kid: &str, stored: &str) -> Result<(String, bool)> {
        let Some(sealed) = stored.strip_prefix(SEALED) else {
            return Ok((stored.to_owned(), true));
        };
        let unreadable = || {
            Error::internal(anyhow::anyhow!(
                "signing key {kid} cannot be opened with KEY_ENCRYPTION_KEY or KEY_ENCRYPTION_KEY_PREVIOUS"
            ))
        };
        let bytes = STANDARD.decode(sealed).map_err(|_| unreadable())?;
        if bytes.len() <= NONCE_LEN {
            return Err(unreadable());
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::from(<[u8; NONCE_LEN]>::try_from(nonce).map_err(|_| unreadable())?);
        let payload = || Payload {
            msg: ciphertext,
            aad: kid.as_bytes(),
        };
        std::iter::once(&self.current)
            .chain(&self.previous)
            .enumerate()
            .find_map(|(i, cipher)| cipher.decrypt(&nonce, payload()).ok().map(|pem| (i, pem)))
            .and_then(|(i, pem)| String::from_utf8(pem).ok().map(|pem| (pem, i > 0)))
            .ok_or_else(unreadable)
    }
}

/// Seals every key under the current key-encryption key: keys stored in plain text before
/// sealing existed, and keys sealed with a previous key (after a rotation of
/// `KEY_ENCRYPTION_KEY`). Returns how many were sealed again.
///
/// # Errors
/// A key that no configured key-encryption key opens (the process must not start without
/// its signing keys); a database failure.
#[tracing::instrument(skip_all)]
pub async fn reseal_all(db: &impl ConnectionTrait, vault: &Vault) -> Result<u64> {
    let mut resealed = 0;
    for row in signing_keys::Entity::find().all(db).await? {
        let (pem, stale) = vault.open(&row.kid, &row.private_pem)?;
        if stale {
            let kid = row.kid.clone();
            let mut active: signing_keys::ActiveModel = row.into();
            active.private_pem = Set(vault.seal(&kid, &pem)?);
            active.update(db).await?;
            resealed += 1;
        }
    }
    Ok(resealed)
}

/// A key that can sign, RS256 or EdDSA, and the JWK that publishes it (as openidconnect derives
/// it). It signs with aws-lc-rs: RS256 in under half the time ring takes (its RSA has the
/// AVX-512 IFMA code OpenSSL has) and a fifth of the `rsa` crate's, Ed25519 in about half the
/// time of ed25519-dalek's (openidconnect's own keys use those two); see BENCHMARKS.md.
pub struct SigningKey {
    pair: KeyPair,
    public: CoreJsonWebKey,
}

enum KeyPair {
    Rsa(aws_lc_rs::signature::RsaKeyPair),
    Ed25519(aws_lc_rs::signature::Ed25519KeyPair),
}

impl SigningKey {
    fn from_row(row: &signing_keys::Model, vault: &Vault) -> Result<Self> {
        let (pem, _) = vault.open(&row.kid, &row.private_pem)?;
        let kid = Some(JsonWebKeyId::new(row.kid.clone()));
        let parsed = match row.alg.as_str() {
            RS256 => Self::rsa(&pem, kid),
            EDDSA => Self::ed25519(&pem, kid),
            other => Err(format!("unknown algorithm {other}")),
        };
        parsed.map_err(|err| Error::internal(anyhow::anyhow!("signing key {} unreadable: {err}", row.kid)))
    }

    /// From the PKCS#1 PEM [`generate`] makes for RS256.
    fn rsa(pem: &str, kid: Option<JsonWebKeyId>) -> std::result::Result<Self, String> {
        use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey};
        let der = rsa::RsaPrivateKey::from_pkcs1_pem(pem)
            .and_then(|key| key.to_pkcs1_der())
            .map_err(|err| err.to_string())?;
        let pair =
            aws_lc_rs::signature::RsaKeyPair::from_der(der.as_bytes()).map_err(|err| err.to_string())?;
        Ok(Self {
            pair: KeyPair::Rsa(pair),
            public: CoreRsaPrivateSigningKey::from_pem(pem, kid)?.as_verification_key(),
        })
    }

    /// From the PKCS#8 PEM [`generate`] makes for EdDSA.
    fn ed25519(pem: &str, kid: Option<JsonWebKeyId>) -> std::result::Result<Self, String> {
        use ed25519_dalek::pkcs8::DecodePrivateKey;
        let seed = ed25519_dalek::SigningKey::from_pkcs8_pem(pem).map_err(|err| err.to_string())?;
        let pair = aws_lc_rs::signature::Ed25519KeyPair::from_seed_unchecked(seed.as_bytes())
            .map_err(|err| err.to_string())?;
        Ok(Self {
            pair: KeyPair::Ed25519(pair),
            public: CoreEdDsaPrivateSigningKey::from_ed25519_pem(pem, kid)?.as_verification_key(),
        })
    }

    /// The algorithm its signatures are made with.
    pub fn alg(&self) -> CoreJwsSigningAlgorithm {
        match self.pair {
            KeyPair::Rsa(_) => CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
            KeyPair::Ed25519(_) => CoreJwsSigningAlgorithm::EdDsa,
        }
    }

    pub fn public(&self) -> CoreJsonWebKey {
        self.public.clone()
    }
}

impl PrivateSigningKey for SigningKey {
    type VerificationKey = CoreJsonWebKey;

    fn sign(
        &self,
        alg: &CoreJwsSigningAlgorithm,
        message: &[u8],
    ) -> std::result::Result<Vec<u8>, SigningError> {
        if *alg != self.alg() {
            return Err(SigningError::UnsupportedAlg(format!("{alg:?}")));
        }
        match &self.pair {
            KeyPair::Rsa(pair) => {
                let mut signature = vec![0; pair.public_modulus_len()];
                pair.sign(
                    &aws_lc_rs::signature::RSA_PKCS1_SHA256,
                    &aws_lc_rs::rand::SystemRandom::new(),
                    message,
                    &mut signature,
                )
                .map_err(|_| SigningError::CryptoError)?;
                Ok(signature)
            }
            KeyPair::Ed25519(pair) => Ok(pair.sign(message).as_ref().to_vec()),
        }
    }

    fn as_verification_key(&self) -> CoreJsonWebKey {
        self.public()
    }
}

fn new_kid() -> String {
    let mut bytes = [0u8; 12];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn generate(alg: &str) -> Result<String> {
    use rsa::pkcs1::EncodeRsaPrivateKey;
    match alg {
        RS256 => {
            let key = rsa::RsaPrivateKey::new(&mut OsRng, 2048).map_err(Error::internal)?;
            Ok(key
                .to_pkcs1_pem(rsa::pkcs8::LineEnding::LF)
                .map_err(Error::internal)?
                .to_string())
        }
        _ => {
            use ed25519_dalek::pkcs8::EncodePrivateKey;
            let mut seed = [0u8; 32];
            OsRng.fill_bytes(&mut seed);
            let key = ed25519_dalek::SigningKey::from_bytes(&seed);
            Ok(key
                .to_pkcs8_pem(ed25519_dalek::pkcs8::spki::der::pem::LineEnding::LF)
                .map_err(|err| Error::internal(anyhow::anyhow!("ed25519 PEM: {err}")))?
                .to_string())
        }
    }
}

async fn insert(db: &impl ConnectionTrait, vault: &Vault, alg: &str) -> Result<signing_keys::Model> {
    let pem = {
        let alg = alg.to_owned();
        tokio::task::spawn_blocking(move || generate(&alg))
            .await
            .map_err(Error::internal)??
    };
    let kid = new_kid();
    Ok(signing_keys::ActiveModel {
        private_pem: Set(vault.seal(&kid, &pem)?),
        kid: Set(kid),
        alg: Set(alg.to_owned()),
        created_at: Set(Utc::now()),
        retired_at: Set(None),
    }
    .insert(db)
    .await?)
}

/// The newest current key of `alg`, made on first use.
///
/// # Errors
/// On a database failure or an unreadable stored key.
pub async fn current(db: &impl ConnectionTrait, vault: &Vault, alg: &str) -> Result<Arc<SigningKey>> {
    vault.signing_key(&current_row(db, vault, alg).await?)
}

/// The newest current key of `alg`, given the one a query read with what it signs for (the
/// token endpoint reads it with the code); read again, and made, when that found none.
///
/// # Errors
/// On a database failure or an unreadable stored key.
pub async fn current_as_read(
    db: &impl ConnectionTrait,
    vault: &Vault,
    alg: &str,
    read: Option<&signing_keys::Model>,
) -> Result<Arc<SigningKey>> {
    match read.filter(|row| row.alg == alg && row.retired_at.is_none()) {
        Some(row) => vault.signing_key(row),
        None => current(db, vault, alg).await,
    }
}

/// The current RSA key's id and PEM (for signing with other libraries: logout tokens).
///
/// # Errors
/// On a database failure or an unreadable stored key.
pub async fn current_rsa_pem(db: &impl ConnectionTrait, vault: &Vault) -> Result<(String, String)> {
    let row = current_row(db, vault, RS256).await?;
    let (pem, _) = vault.open(&row.kid, &row.private_pem)?;
    Ok((row.kid, pem))
}

async fn current_row(db: &impl ConnectionTrait, vault: &Vault, alg: &str) -> Result<signing_keys::Model> {
    let row = signing_keys::Entity::find()
        .filter(signing_keys::Column::Alg.eq(alg))
        .filter(signing_keys::Column::RetiredAt.is_null())
        .order_by_desc(signing_keys::Column::CreatedAt)
        .order_by_desc(signing_keys::Column::Kid)
        .one(db)
        .await?;
    match row {
        Some(row) => Ok(row),
        None => insert(db, vault, alg).await,
    }
}

/// Every key a token in circulation may carry: current keys, and retired ones until the
/// longest-lived token they signed has expired.
///
/// # Errors
/// On a database failure or an unreadable stored key.
pub async fn published(db: &impl ConnectionTrait, vault: &Vault) -> Result<CoreJsonWebKeySet> {
    // Make sure both current keys exist, so the set never changes under a client's feet.
    current(db, vault, RS256).await?;
    current(db, vault, EDDSA).await?;
    let still_verifying = Utc::now() - ACCESS_TTL - chrono::Duration::minutes(5);
    let rows = signing_keys::Entity::find()
        .filter(
            sea_orm::Condition::any()
                .add(signing_keys::Column::RetiredAt.is_null())
                .add(signing_keys::Column::RetiredAt.gt(still_verifying)),
        )
        .order_by_desc(signing_keys::Column::CreatedAt)
        .all(db)
        .await?;
    let keys = rows
        .iter()
        .map(|row| vault.signing_key(row).map(|key| key.public()))
        .collect::<Result<Vec<_>>>()?;
    Ok(CoreJsonWebKeySet::new(keys))
}

/// Both current keys, made now when they do not exist yet: the server makes them as it starts,
/// so that every later command finds keys to prove its `KEY_ENCRYPTION_KEY` against (a
/// rotation with another key would otherwise seal keys the server cannot open).
///
/// # Errors
/// On a database failure or an unreadable stored key.
pub async fn ensure_current(db: &impl ConnectionTrait, vault: &Vault) -> Result<()> {
    current(db, vault, RS256).await?;
    current(db, vault, EDDSA).await?;
    Ok(())
}

/// Retires the current keys and makes new ones; returns the new key ids. The command line
/// opens every stored key first ([`reseal_all`]), so that it never seals new keys with a
/// key-encryption key the server does not have.
///
/// # Errors
/// On a database failure.
#[tracing::instrument(skip_all)]
pub async fn rotate(db: &impl ConnectionTrait, vault: &Vault) -> Result<Vec<String>> {
    let now = Utc::now();
    signing_keys::Entity::update_many()
        .col_expr(
            signing_keys::Column::RetiredAt,
            sea_orm::sea_query::Expr::value(Some(now)),
        )
        .filter(signing_keys::Column::RetiredAt.is_null())
        .exec(db)
        .await?;
    let mut kids = Vec::new();
    for alg in [RS256, EDDSA] {
        kids.push(insert(db, vault, alg).await?.kid);
    }
    Ok(kids)
}

/// Forgets keys retired long enough ago that nothing they signed is still valid.
///
/// # Errors
/// On a database failure.
pub async fn prune(db: &impl ConnectionTrait) -> Result<u64> {
    let before = Utc::now() - ACCESS_TTL - chrono::Duration::hours(1);
    Ok(signing_keys::Entity::delete_many()
        .filter(signing_keys::Column::RetiredAt.lt(before))
        .exec(db)
        .await?
        .rows_affected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vault(current: u8, previous: &[u8]) -> Vault {
        Vault::new(&KeyEncryptionKeys {
            current: [current; 32],
            previous: previous.iter().map(|p| [*p; 32]).collect(),
        })
    }

    #[test]
    fn a_sealed_key_opens_only_with_its_key_and_its_id() {
        let pem = "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n";
        let sealed = vault(1, &[]).seal("kid-1", pem).unwrap();
        assert!(sealed.starts_with(SEALED) && !sealed.contains("PRIVATE KEY"));
        assert_eq!(
            vault(1, &[]).open("kid-1", &sealed).unwrap(),
            (pem.to_owned(), false)
        );
        assert!(vault(2, &[]).open("kid-1", &sealed).is_err(), "another key");
        assert!(
            vault(1, &[]).open("kid-2", &sealed).is_err(),
            "moved to another row"
        );
        // After a rotation the previous key still opens it, and says it is stale.
        assert_eq!(
            vault(2, &[1]).open("kid-1", &sealed).unwrap(),
            (pem.to_owned(), true)
        );
        // A key stored before sealing existed is read, and is stale.
        assert_eq!(vault(1, &[]).open("kid-1", pem).unwrap(), (pem.to_owned(), true));
        assert_ne!(
            vault(1, &[]).seal("kid-1", pem).unwrap(),
            sealed,
            "a fresh nonce each time"
        );
    }
}
