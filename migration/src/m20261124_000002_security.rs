//! Security hardening: sign-in throttles, single-use Google tokens, the audit log, session
//! activity, outbox rows owned by their account and cleared of secrets, and the end of the
//! per-account lock (its counters move to `login_throttles`).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_table(login_throttles()).await?;
        manager.create_table(used_id_tokens()).await?;
        manager.create_table(audit_events()).await?;
        manager
            .create_index(
                Index::create()
                    .name("audit_events_at_idx")
                    .table(AuditEvents::Table)
                    .col(AuditEvents::At)
                    .col(AuditEvents::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("audit_events_user_id_idx")
                    .table(AuditEvents::Table)
                    .col(AuditEvents::UserId)
                    .col(AuditEvents::At)
                    .to_owned(),
            )
            .await?;

        let db = manager.get_connection();
        let uuid = match manager.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => "uuid",
            // The type name SeaORM gives UUID columns on SQLite, as in the first migration.
            _ => "uuid_text",
        };
        let timestamp = match manager.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => "timestamp with time zone",
            _ => "timestamp_with_timezone_text",
        };
        // Raw statements: SQLite only adds a referencing column through inline REFERENCES.
        for sql in [
            format!("ALTER TABLE sessions ADD COLUMN last_seen_at {timestamp} NULL"),
            "ALTER TABLE sessions ADD COLUMN ip varchar NULL".to_owned(),
            format!(
                "ALTER TABLE mail_outbox ADD COLUMN user_id {uuid} NULL \
                 REFERENCES users (id) ON DELETE CASCADE"
            ),
            format!("ALTER TABLE mail_outbox ADD COLUMN secret_until {timestamp} NULL"),
            "ALTER TABLE users DROP COLUMN failed_logins".to_owned(),
            "ALTER TABLE users DROP COLUMN locked_until".to_owned(),
        ] {
            db.execute_unprepared(&sql).await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("mail_outbox_user_id_idx")
                    .table(MailOutbox::Table)
                    .col(MailOutbox::UserId)
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for table in [
            AuditEvents::Table.into_iden(),
            UsedIdTokens::Table.into_iden(),
            LoginThrottles::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        manager
            .drop_index(
                Index::drop()
                    .name("mail_outbox_user_id_idx")
                    .table(MailOutbox::Table)
                    .to_owned(),
            )
            .await?;
        for sql in [
            "ALTER TABLE sessions DROP COLUMN last_seen_at",
            "ALTER TABLE sessions DROP COLUMN ip",
            "ALTER TABLE mail_outbox DROP COLUMN user_id",
            "ALTER TABLE mail_outbox DROP COLUMN secret_until",
            "ALTER TABLE users ADD COLUMN failed_logins integer NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN locked_until varchar NULL",
        ] {
            db.execute_unprepared(sql).await?;
        }
        Ok(())
    }
}

fn instant(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn login_throttles() -> TableCreateStatement {
    Table::create()
        .table(LoginThrottles::Table)
        .col(
            ColumnDef::new(LoginThrottles::Key)
                .string()
                .not_null()
                .primary_key(),
        )
        .col(
            ColumnDef::new(LoginThrottles::Failures)
                .integer()
                .not_null()
                .default(0),
        )
        .col(
            ColumnDef::new(LoginThrottles::BlockedUntil)
                .timestamp_with_time_zone()
                .null(),
        )
        .col(instant(LoginThrottles::UpdatedAt))
        .to_owned()
}

fn used_id_tokens() -> TableCreateStatement {
    Table::create()
        .table(UsedIdTokens::Table)
        .col(
            ColumnDef::new(UsedIdTokens::TokenHash)
                .string()
                .not_null()
                .primary_key(),
        )
        .col(instant(UsedIdTokens::ExpiresAt))
        .to_owned()
}

fn audit_events() -> TableCreateStatement {
    Table::create()
        .table(AuditEvents::Table)
        .col(ColumnDef::new(AuditEvents::Id).uuid().not_null().primary_key())
        .col(instant(AuditEvents::At))
        .col(ColumnDef::new(AuditEvents::Kind).string().not_null())
        // No reference: the record of an account outlives the account.
        .col(ColumnDef::new(AuditEvents::UserId).uuid().null())
        .col(ColumnDef::new(AuditEvents::ActorId).uuid().null())
        .col(ColumnDef::new(AuditEvents::Ip).string().null())
        .col(ColumnDef::new(AuditEvents::UserAgent).string().null())
        .col(ColumnDef::new(AuditEvents::Detail).string().null())
        .to_owned()
}

#[derive(DeriveIden)]
enum LoginThrottles {
    Table,
    Key,
    Failures,
    BlockedUntil,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum UsedIdTokens {
    Table,
    TokenHash,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum AuditEvents {
    Table,
    Id,
    At,
    Kind,
    UserId,
    ActorId,
    Ip,
    UserAgent,
    Detail,
}

#[derive(DeriveIden)]
enum MailOutbox {
    Table,
    UserId,
}
