//! Failed sign-ins counted per key (an email, an email from one address, an address), with
//! the time until which the key is refused. Shared by every instance.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "login_throttles")]
pub struct Model {
    /// `{scope}:{keyed hash}`: no email or address is stored in clear.
    #[sea_orm(primary_key, auto_increment = false)]
    pub key: String,
    pub failures: i32,
    pub blocked_until: Option<DateTimeUtc>,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
