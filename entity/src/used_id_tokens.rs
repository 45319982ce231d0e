//! Google ID tokens already used to sign in, remembered until they expire, so a token
//! captured once cannot sign in twice.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "used_id_tokens")]
pub struct Model {
    /// SHA-256 of the token.
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    pub expires_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
