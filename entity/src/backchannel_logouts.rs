//! OpenID Back-Channel Logout notices waiting for delivery: a client that is down gets its
//! notice when it returns. The logout token is signed when it is sent.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "backchannel_logouts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub client_id: String,
    pub user_id: Uuid,
    pub session_id: Uuid,
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    pub locked_until: Option<DateTimeUtc>,
    pub last_error: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
