//! Two-factor sign-in: the authenticator secret and the last accepted time step of each
//! account, its single-use recovery codes, and the challenges that sit between a proven
//! password (or Google identity) and a session.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for sql in [
            "ALTER TABLE users ADD COLUMN totp_secret varchar NULL",
            "ALTER TABLE users ADD COLUMN totp_last_step bigint NULL",
        ] {
            db.execute_unprepared(sql).await?;
        }
        manager.create_table(recovery_codes()).await?;
        manager.create_table(two_factor_challenges()).await?;
        // Cascading deletes and "this account's codes" look rows up by their account.
        manager
            .create_index(
                Index::create()
                    .name("recovery_codes_user_id_idx")
                    .table(RecoveryCodes::Table)
                    .col(RecoveryCodes::UserId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("two_factor_challenges_user_id_idx")
                    .table(TwoFactorChallenges::Table)
                    .col(TwoFactorChallenges::UserId)
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            TwoFactorChallenges::Table.into_iden(),
            RecoveryCodes::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        let db = manager.get_connection();
        for sql in [
            "ALTER TABLE users DROP COLUMN totp_secret",
            "ALTER TABLE users DROP COLUMN totp_last_step",
        ] {
            db.execute_unprepared(sql).await?;
        }
        Ok(())
    }
}

fn owned_by_user(name: &str, table: impl IntoIden, col: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(table, col)
        .to(Users::Table, Users::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

fn instant(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn recovery_codes() -> TableCreateStatement {
    Table::create()
        .table(RecoveryCodes::Table)
        .col(ColumnDef::new(RecoveryCodes::Id).uuid().not_null().primary_key())
        .col(ColumnDef::new(RecoveryCodes::UserId).uuid().not_null())
        .col(ColumnDef::new(RecoveryCodes::CodeHash).string().not_null())
        .col(
            ColumnDef::new(RecoveryCodes::UsedAt)
                .timestamp_with_time_zone()
                .null(),
        )
        .col(instant(RecoveryCodes::CreatedAt))
        .index(
            Index::create()
                .name("recovery_codes_code_hash_key")
                .col(RecoveryCodes::CodeHash)
                .unique(),
        )
        .foreign_key(&mut owned_by_user(
            "recovery_codes_user_id_fkey",
            RecoveryCodes::Table,
            RecoveryCodes::UserId,
        ))
        .to_owned()
}

fn two_factor_challenges() -> TableCreateStatement {
    Table::create()
        .table(TwoFactorChallenges::Table)
        .col(
            ColumnDef::new(TwoFactorChallenges::TokenHash)
                .string()
                .not_null()
                .primary_key(),
        )
        .col(ColumnDef::new(TwoFactorChallenges::UserId).uuid().not_null())
        .col(ColumnDef::new(TwoFactorChallenges::Method).string().not_null())
        .col(
            ColumnDef::new(TwoFactorChallenges::Failures)
                .integer()
                .not_null()
                .default(0),
        )
        .col(instant(TwoFactorChallenges::CreatedAt))
        .col(instant(TwoFactorChallenges::ExpiresAt))
        .foreign_key(&mut owned_by_user(
            "two_factor_challenges_user_id_fkey",
            TwoFactorChallenges::Table,
            TwoFactorChallenges::UserId,
        ))
        .to_owned()
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum RecoveryCodes {
    Table,
    Id,
    UserId,
    CodeHash,
    UsedAt,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum TwoFactorChallenges {
    Table,
    TokenHash,
    UserId,
    Method,
    Failures,
    CreatedAt,
    ExpiresAt,
}
