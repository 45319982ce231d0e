//! The step between a proven first factor (password or Google) and a session when the
//! account has two-factor sign-in: short-lived, single-use, limited in wrong codes.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "two_factor_challenges")]
pub struct Model {
    /// SHA-256 of the challenge handed to the client.
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    pub user_id: Uuid,
    /// `password` or `google`: how the first factor was proven.
    pub method: String,
    pub failures: i32,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
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
