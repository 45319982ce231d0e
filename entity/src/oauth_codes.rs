//! An authorization code: single use, 60 seconds, bound to its client, redirect URI, PKCE
//! challenge and the session that approved it.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oauth_codes")]
pub struct Model {
    /// SHA-256 of the code.
    #[sea_orm(primary_key, auto_increment = false)]
    pub code_hash: String,
    /// Every token issued from this code shares it, so a replayed code revokes them all.
    pub grant_id: Uuid,
    pub client_id: String,
    pub user_id: Uuid,
    pub session_id: Uuid,
    pub redirect_uri: String,
    /// The S256 PKCE challenge.
    pub code_challenge: String,
    pub nonce: Option<String>,
    pub scope: String,
    pub auth_time: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    pub used_at: Option<DateTimeUtc>,
}

/// The session that approved the code and the client it was issued to: the token endpoint
/// reads them with the code, in one query.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::sessions::Entity",
        from = "Column::SessionId",
        to = "super::sessions::Column::Id"
    )]
    Session,
    #[sea_orm(
        belongs_to = "super::oauth_clients::Entity",
        from = "Column::ClientId",
        to = "super::oauth_clients::Column::ClientId"
    )]
    Client,
}

impl Related<super::sessions::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Session.def()
    }
}

impl Related<super::oauth_clients::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Client.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
