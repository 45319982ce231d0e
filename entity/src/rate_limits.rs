//! Fixed-window counters shared by every server instance (per email, per account).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "rate_limits")]
pub struct Model {
    /// `{purpose}:{hash of the subject}`, so no email is stored in clear here.
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    pub window_started_at: DateTimeUtc,
    pub hits: i32,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
