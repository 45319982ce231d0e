//! Sign-in links mailed on request: single use, short-lived, stored hashed, gone with the
//! account.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SignInLinks::Table)
                    .col(ColumnDef::new(SignInLinks::Id).uuid().not_null().primary_key())
                    .col(ColumnDef::new(SignInLinks::UserId).uuid().not_null())
                    .col(
                        ColumnDef::new(SignInLinks::TokenHash)
                            .string()
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(SignInLinks::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(SignInLinks::ExpiresAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(SignInLinks::UsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("sign_in_links_user_id_fkey")
                            .from(SignInLinks::Table, SignInLinks::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("sign_in_links_user_id_idx")
                    .table(SignInLinks::Table)
                    .col(SignInLinks::UserId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(SignInLinks::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum SignInLinks {
    Table,
    Id,
    UserId,
    TokenHash,
    CreatedAt,
    ExpiresAt,
    UsedAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}
