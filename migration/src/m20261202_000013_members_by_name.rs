//! The members list puts owners first and then everyone else by name (API.md), where it had put
//! admins before members: a member's place in the list (`rank` 2) becomes an admin's (1).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .exec_stmt(
                Query::update()
                    .table(OrganizationMembers::Table)
                    .value(OrganizationMembers::Rank, 1)
                    .and_where(Expr::col(OrganizationMembers::Rank).eq(2))
                    .to_owned(),
            )
            .await
    }

    /// Admins and members apart again: each row's role says which it was.
    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .exec_stmt(
                Query::update()
                    .table(OrganizationMembers::Table)
                    .value(OrganizationMembers::Rank, 2)
                    .and_where(Expr::col(OrganizationMembers::Role).eq("member"))
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum OrganizationMembers {
    Table,
    Role,
    Rank,
}
