//! The provider's signing keys. The newest unretired key of an algorithm signs; a retired key
//! stays published until every token it signed has expired.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "signing_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub kid: String,
    /// `RS256` or `EdDSA`.
    pub alg: String,
    /// PKCS#1 PEM for RSA, PKCS#8 PEM for Ed25519.
    pub private_pem: String,
    pub created_at: DateTimeUtc,
    pub retired_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
