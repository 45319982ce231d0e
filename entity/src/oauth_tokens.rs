//! Access and refresh tokens issued to clients, stored hashed. They die with the session
//! that approved them; a refresh token is used once (rotation), and a second use revokes
//! its whole grant.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oauth_tokens")]
pub struct Model {
    /// SHA-256 of the token.
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    /// `access` or `refresh`.
    pub kind: String,
    pub grant_id: Uuid,
    pub client_id: String,
    pub user_id: Uuid,
    pub session_id: Uuid,
    pub scope: String,
    pub auth_time: DateTimeUtc,
    pub nonce: Option<String>,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    /// Set when a refresh token is exchanged; it never works again.
    pub used_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::users::Entity",
        from = "Column::UserId",
        to = "super::users::Column::Id",
        on_delete = "Cascade"
    )]
    User,
    /// The sign-in the grant came from: a refresh reads the token and it in one query.
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

impl Related<super::users::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::User.def()
    }
}

impl Related<super::oauth_clients::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Client.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
