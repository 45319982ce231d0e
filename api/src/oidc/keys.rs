//! The provider's signing keys: an RSA key (RS256, what every client supports) and an
//! Ed25519 key (EdDSA, offered), kept in the database so every instance signs and publishes
//! the same ones. `api signing-key rotate` retires the current keys and makes new ones; a
//! retired key stays in the JWKS until the tokens it signed have expired.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::Utc;
use entity::signing_keys;
use openidconnect::{
    JsonWebKeyId, PrivateSigningKey,
    core::{CoreEdDsaPrivateSigningKey, CoreJsonWebKey, CoreJsonWebKeySet, CoreRsaPrivateSigningKey},
};
use rand::{RngCore, rngs::OsRng};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use super::ACCESS_TTL;
use crate::error::{Error, Result};

pub const RS256: &str = "RS256";
pub const EDDSA: &str = "EdDSA";

/// A key that can sign, with its algorithm's name.
pub enum SigningKey {
    Rsa(CoreRsaPrivateSigningKey),
    EdDsa(CoreEdDsaPrivateSigningKey),
}

impl SigningKey {
    fn from_row(row: &signing_keys::Model) -> Result<Self> {
        let kid = Some(JsonWebKeyId::new(row.kid.clone()));
        let parsed = match row.alg.as_str() {
            RS256 => CoreRsaPrivateSigningKey::from_pem(&row.private_pem, kid).map(Self::Rsa),
            EDDSA => CoreEdDsaPrivateSigningKey::from_ed25519_pem(&row.private_pem, kid).map(Self::EdDsa),
            other => Err(format!("unknown algorithm {other}")),
        };
        parsed.map_err(|err| Error::internal(anyhow::anyhow!("signing key {} unreadable: {err}", row.kid)))
    }

    pub fn public(&self) -> CoreJsonWebKey {
        match self {
            Self::Rsa(key) => key.as_verification_key(),
            Self::EdDsa(key) => key.as_verification_key(),
        }
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

async fn insert(db: &impl ConnectionTrait, alg: &str) -> Result<signing_keys::Model> {
    let pem = {
        let alg = alg.to_owned();
        tokio::task::spawn_blocking(move || generate(&alg))
            .await
            .map_err(Error::internal)??
    };
    Ok(signing_keys::ActiveModel {
        kid: Set(new_kid()),
        alg: Set(alg.to_owned()),
        private_pem: Set(pem),
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
pub async fn current(db: &impl ConnectionTrait, alg: &str) -> Result<SigningKey> {
    SigningKey::from_row(&current_row(db, alg).await?)
}

/// The current RSA key's row (for signing with other libraries: logout tokens).
///
/// # Errors
/// On a database failure.
pub async fn current_rsa_row(db: &impl ConnectionTrait) -> Result<signing_keys::Model> {
    current_row(db, RS256).await
}

async fn current_row(db: &impl ConnectionTrait, alg: &str) -> Result<signing_keys::Model> {
    let row = signing_keys::Entity::find()
        .filter(signing_keys::Column::Alg.eq(alg))
        .filter(signing_keys::Column::RetiredAt.is_null())
        .order_by_desc(signing_keys::Column::CreatedAt)
        .order_by_desc(signing_keys::Column::Kid)
        .one(db)
        .await?;
    match row {
        Some(row) => Ok(row),
        None => insert(db, alg).await,
    }
}

/// Every key a token in circulation may carry: current keys, and retired ones until the
/// longest-lived token they signed has expired.
///
/// # Errors
/// On a database failure or an unreadable stored key.
pub async fn published(db: &impl ConnectionTrait) -> Result<CoreJsonWebKeySet> {
    // Make sure both current keys exist, so the set never changes under a client's feet.
    current(db, RS256).await?;
    current(db, EDDSA).await?;
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
        .map(|row| SigningKey::from_row(row).map(|key| key.public()))
        .collect::<Result<Vec<_>>>()?;
    Ok(CoreJsonWebKeySet::new(keys))
}

/// Retires the current keys and makes new ones; returns the new key ids.
///
/// # Errors
/// On a database failure.
pub async fn rotate(db: &impl ConnectionTrait) -> Result<Vec<String>> {
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
        kids.push(insert(db, alg).await?.kid);
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
