//! Organizations (Hire teams and Campus institutes), their members and their invitations.
//! Memberships and invitations go with their organization; memberships with their account.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_table(organizations()).await?;
        manager.create_table(members()).await?;
        manager.create_table(invitations()).await?;
        let indexes = [
            // The members page: owners first, then by name, as one index range.
            Index::create()
                .name("organization_members_page_idx")
                .table(OrganizationMembers::Table)
                .col(OrganizationMembers::OrganizationId)
                .col(OrganizationMembers::Rank)
                .col(OrganizationMembers::NameKey)
                .col(OrganizationMembers::UserId)
                .to_owned(),
            // "My organizations", and the cascade when an account goes.
            Index::create()
                .name("organization_members_user_id_idx")
                .table(OrganizationMembers::Table)
                .col(OrganizationMembers::UserId)
                .to_owned(),
            // Pending invitations of an organization, by address, and the day's count.
            Index::create()
                .name("organization_invitations_org_email_idx")
                .table(OrganizationInvitations::Table)
                .col(OrganizationInvitations::OrganizationId)
                .col(OrganizationInvitations::Email)
                .to_owned(),
            Index::create()
                .name("organization_invitations_org_created_idx")
                .table(OrganizationInvitations::Table)
                .col(OrganizationInvitations::OrganizationId)
                .col(OrganizationInvitations::CreatedAt)
                .to_owned(),
        ];
        for index in indexes {
            manager.create_index(index).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            OrganizationInvitations::Table.into_iden(),
            OrganizationMembers::Table.into_iden(),
            Organizations::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

fn text(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).string().not_null().to_owned()
}

fn instant(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn uuid(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).uuid().not_null().to_owned()
}

fn references(
    name: &str,
    (table, col): (impl IntoIden, impl IntoIden),
    (to, to_col): (impl IntoIden, impl IntoIden),
    on_delete: ForeignKeyAction,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(table, col)
        .to(to, to_col)
        .on_delete(on_delete)
        .to_owned()
}

fn organizations() -> TableCreateStatement {
    Table::create()
        .table(Organizations::Table)
        .col(uuid(Organizations::Id).primary_key())
        .col(text(Organizations::Name))
        .col(text(Organizations::Slug))
        .col(text(Organizations::Kind))
        .col(ColumnDef::new(Organizations::SeatLimit).integer().null())
        .col(instant(Organizations::CreatedAt))
        .col(instant(Organizations::UpdatedAt))
        .index(
            Index::create()
                .name("organizations_slug_key")
                .col(Organizations::Slug)
                .unique(),
        )
        .to_owned()
}

fn members() -> TableCreateStatement {
    Table::create()
        .table(OrganizationMembers::Table)
        .col(uuid(OrganizationMembers::OrganizationId))
        .col(uuid(OrganizationMembers::UserId))
        .col(text(OrganizationMembers::Role))
        .col(
            ColumnDef::new(OrganizationMembers::Rank)
                .small_integer()
                .not_null(),
        )
        .col(text(OrganizationMembers::NameKey))
        .col(instant(OrganizationMembers::JoinedAt))
        .primary_key(
            Index::create()
                .name("organization_members_pkey")
                .col(OrganizationMembers::OrganizationId)
                .col(OrganizationMembers::UserId),
        )
        .foreign_key(&mut references(
            "organization_members_organization_id_fkey",
            (OrganizationMembers::Table, OrganizationMembers::OrganizationId),
            (Organizations::Table, Organizations::Id),
            ForeignKeyAction::Cascade,
        ))
        .foreign_key(&mut references(
            "organization_members_user_id_fkey",
            (OrganizationMembers::Table, OrganizationMembers::UserId),
            (Users::Table, Users::Id),
            ForeignKeyAction::Cascade,
        ))
        .to_owned()
}

fn invitations() -> TableCreateStatement {
    Table::create()
        .table(OrganizationInvitations::Table)
        .col(uuid(OrganizationInvitations::Id).primary_key())
        .col(uuid(OrganizationInvitations::OrganizationId))
        .col(text(OrganizationInvitations::Email))
        .col(text(OrganizationInvitations::Role))
        .col(text(OrganizationInvitations::TokenHash).unique_key())
        .col(text(OrganizationInvitations::Status))
        .col(ColumnDef::new(OrganizationInvitations::InvitedBy).uuid().null())
        .col(instant(OrganizationInvitations::ExpiresAt))
        .col(instant(OrganizationInvitations::CreatedAt))
        .col(
            ColumnDef::new(OrganizationInvitations::AcceptedAt)
                .timestamp_with_time_zone()
                .null(),
        )
        .foreign_key(&mut references(
            "organization_invitations_organization_id_fkey",
            (
                OrganizationInvitations::Table,
                OrganizationInvitations::OrganizationId,
            ),
            (Organizations::Table, Organizations::Id),
            ForeignKeyAction::Cascade,
        ))
        .foreign_key(&mut references(
            "organization_invitations_invited_by_fkey",
            (OrganizationInvitations::Table, OrganizationInvitations::InvitedBy),
            (Users::Table, Users::Id),
            ForeignKeyAction::SetNull,
        ))
        .to_owned()
}

#[derive(DeriveIden)]
enum Organizations {
    Table,
    Id,
    Name,
    Slug,
    Kind,
    SeatLimit,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum OrganizationMembers {
    Table,
    OrganizationId,
    UserId,
    Role,
    Rank,
    NameKey,
    JoinedAt,
}

#[derive(DeriveIden)]
enum OrganizationInvitations {
    Table,
    Id,
    OrganizationId,
    Email,
    Role,
    TokenHash,
    Status,
    InvitedBy,
    ExpiresAt,
    CreatedAt,
    AcceptedAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}
