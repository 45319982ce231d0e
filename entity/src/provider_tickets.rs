//! What a provider's popup proved, waiting for the site to use it: single use, five minutes,
//! the ticket stored as its SHA-256.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "provider_tickets")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    pub provider: String,
    pub subject: String,
    pub email: Option<String>,
    pub email_vouched: bool,
    pub name: Option<String>,
    pub expires_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
