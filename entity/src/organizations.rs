//! An organization: a Hire hiring team or a Campus institute, with members and invitations.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "organizations")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub name: String,
    /// `[a-z0-9-]`, 3-40 characters; the unique index `organizations_slug_key` keeps it unique.
    #[sea_orm(unique)]
    pub slug: String,
    pub kind: OrgKind,
    /// Members plus pending invitations may not pass it; `None` is unlimited. Site admins set it.
    pub seat_limit: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// Which platform the organization is on: a Hire team or a Campus institute. Stored as its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum OrgKind {
    #[sea_orm(string_value = "hire")]
    Hire,
    #[sea_orm(string_value = "campus")]
    Campus,
}

impl OrgKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hire => "hire",
            Self::Campus => "campus",
        }
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(has_many = "super::organization_members::Entity")]
    Members,
    #[sea_orm(has_many = "super::organization_invitations::Entity")]
    Invitations,
}

impl Related<super::organization_members::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Members.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
