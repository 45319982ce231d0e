//! A passkey registration or sign-in between its start and its finish: webauthn-rs's state as
//! JSON, found by the challenge it issued, used once, five minutes.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "passkey_ceremonies")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub challenge: String,
    pub user_id: Option<Uuid>,
    #[sea_orm(column_type = "Text")]
    pub state: String,
    pub expires_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
