//! The admin console's reads: people found by a prefix of their name (case-insensitive) or
//! email among a million, in name order, and the audit log filtered by kind. The name key is
//! `lower(name)`, compared bytewise (`COLLATE "C"` on PostgreSQL, SQLite's default), so a
//! prefix is one index range on both databases. `last_sign_in_at` is kept at each sign-in,
//! filled here from the audit log.

use sea_orm::DatabaseBackend;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The name key as the index and the queries spell it (see `api::admin::users`).
fn name_key(backend: DatabaseBackend) -> &'static str {
    match backend {
        DatabaseBackend::Postgres => "(lower(name) COLLATE \"C\")",
        _ => "lower(name)",
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .add_column(
                        ColumnDef::new(Users::LastSignInAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE users SET last_sign_in_at = (SELECT MAX(at) FROM audit_events \
             WHERE audit_events.kind = 'sign_in' AND audit_events.user_id = users.id)",
        )
        .await?;
        let backend = manager.get_database_backend();
        let key = name_key(backend);
        let mut indexes = vec![
            ("users_name_key_idx", "users", format!("{key}, id")),
            ("users_role_name_key_idx", "users", format!("role, {key}, id")),
            ("users_status_name_key_idx", "users", format!("status, {key}, id")),
            (
                "organizations_name_key_idx",
                "organizations",
                format!("{key}, id"),
            ),
        ];
        if backend == DatabaseBackend::Postgres {
            // SQLite's unique index on email already compares bytewise.
            indexes.push(("users_email_c_idx", "users", "(email COLLATE \"C\")".to_owned()));
        }
        for (name, table, columns) in indexes {
            db.execute_unprepared(&format!("CREATE INDEX {name} ON {table} ({columns})"))
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("audit_events_kind_idx")
                    .table(AuditEvents::Table)
                    .col(AuditEvents::Kind)
                    .col(AuditEvents::At)
                    .col(AuditEvents::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for name in [
            "users_name_key_idx",
            "users_role_name_key_idx",
            "users_status_name_key_idx",
            "organizations_name_key_idx",
            "users_email_c_idx",
            "audit_events_kind_idx",
        ] {
            db.execute_unprepared(&format!("DROP INDEX IF EXISTS {name}"))
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Users::Table)
                    .drop_column(Users::LastSignInAt)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    LastSignInAt,
}

#[derive(DeriveIden)]
enum AuditEvents {
    Table,
    Kind,
    At,
    Id,
}
