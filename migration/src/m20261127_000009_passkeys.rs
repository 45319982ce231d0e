//! Passkeys (WebAuthn credentials) and the ceremonies between their start and finish. A
//! ceremony's state lives in the database, so any instance finishes what another started; it is
//! found by its challenge, used once and lives five minutes.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Passkeys::Table)
                    .col(ColumnDef::new(Passkeys::Id).uuid().not_null().primary_key())
                    .col(ColumnDef::new(Passkeys::UserId).uuid().not_null())
                    // One credential belongs to one account, whoever registers it first.
                    .col(
                        ColumnDef::new(Passkeys::CredentialId)
                            .string()
                            .not_null()
                            .unique_key(),
                    )
                    .col(ColumnDef::new(Passkeys::Name).string().not_null())
                    .col(ColumnDef::new(Passkeys::Credential).text().not_null())
                    .col(
                        ColumnDef::new(Passkeys::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(Passkeys::LastUsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("passkeys_user_id_fkey")
                            .from(Passkeys::Table, Passkeys::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("passkeys_user_id_idx")
                    .table(Passkeys::Table)
                    .col(Passkeys::UserId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(PasskeyCeremonies::Table)
                    .col(
                        ColumnDef::new(PasskeyCeremonies::Challenge)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    // Registration only: whose passkey it will be. Sign-in ceremonies have none.
                    .col(ColumnDef::new(PasskeyCeremonies::UserId).uuid().null())
                    .col(ColumnDef::new(PasskeyCeremonies::State).text().not_null())
                    .col(
                        ColumnDef::new(PasskeyCeremonies::ExpiresAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .name("passkey_ceremonies_user_id_fkey")
                            .from(PasskeyCeremonies::Table, PasskeyCeremonies::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("passkey_ceremonies_expires_at_idx")
                    .table(PasskeyCeremonies::Table)
                    .col(PasskeyCeremonies::ExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(
                Table::drop()
                    .table(PasskeyCeremonies::Table)
                    .if_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(Passkeys::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Passkeys {
    Table,
    Id,
    UserId,
    CredentialId,
    Name,
    Credential,
    CreatedAt,
    LastUsedAt,
}

#[derive(DeriveIden)]
enum PasskeyCeremonies {
    Table,
    Challenge,
    UserId,
    State,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}
