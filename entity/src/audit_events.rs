//! What happened to an account, when, from where: sign-ins, codes, resets, links, deletions.
//! Never a secret, a code or a token.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub at: DateTimeUtc,
    /// A stable snake_case name such as `sign_in_failed`.
    pub kind: String,
    /// The account concerned; kept after the account is deleted.
    pub user_id: Option<Uuid>,
    /// Who did it, when not the account itself (an admin).
    pub actor_id: Option<Uuid>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub detail: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
