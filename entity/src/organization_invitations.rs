//! An invitation to join an organization, mailed as a single-use link valid seven days.

use sea_orm::entity::prelude::*;

use super::organization_members::OrgRole;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "organization_invitations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub organization_id: Uuid,
    /// Lowercased, as registration stores addresses.
    pub email: String,
    pub role: OrgRole,
    /// SHA-256 of the link's token; the token itself is only in the mail.
    #[sea_orm(unique)]
    pub token_hash: String,
    pub status: InvitationStatus,
    pub invited_by: Option<Uuid>,
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
    pub accepted_at: Option<DateTimeUtc>,
}

/// Where an invitation stands; `expired` is not stored: a pending one past `expires_at` is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum InvitationStatus {
    #[sea_orm(string_value = "pending")]
    Pending,
    #[sea_orm(string_value = "accepted")]
    Accepted,
    #[sea_orm(string_value = "revoked")]
    Revoked,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::organizations::Entity",
        from = "Column::OrganizationId",
        to = "super::organizations::Column::Id",
        on_delete = "Cascade"
    )]
    Organization,
    #[sea_orm(
        belongs_to = "super::users::Entity",
        from = "Column::InvitedBy",
        to = "super::users::Column::Id",
        on_delete = "SetNull"
    )]
    Inviter,
}

impl Related<super::organizations::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Organization.def()
    }
}

impl Related<super::users::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Inviter.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
