//! A signed-in device. A JWT is honoured only while its session row exists and is unexpired.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub user_id: Uuid,
    pub user_agent: Option<String>,
    /// The address the session signed in from.
    pub ip: Option<String>,
    pub created_at: DateTimeUtc,
    /// The absolute end of the session, however active it is.
    pub expires_at: DateTimeUtc,
    /// Last use, kept to the minute; the idle timeout counts from here (or from creation).
    pub last_seen_at: Option<DateTimeUtc>,
    /// When the person last proved who they are in this session (sign-in or confirmation);
    /// unset on sessions from before it was kept, which count from `created_at`.
    pub authenticated_at: Option<DateTimeUtc>,
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
}

impl Related<super::users::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::User.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
