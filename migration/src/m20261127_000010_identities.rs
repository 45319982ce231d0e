//! Sign-in providers as one family: an identity per (provider, subject), the email the provider
//! vouched for, and the single-use tickets a provider's popup hands the site. Google's links
//! move here from `users.google_sub`, which stays (unread) so an older binary still starts.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Identities::Table)
                    .col(ColumnDef::new(Identities::Provider).string().not_null())
                    .col(ColumnDef::new(Identities::Subject).string().not_null())
                    .col(ColumnDef::new(Identities::UserId).uuid().not_null())
                    .col(ColumnDef::new(Identities::Email).string().null())
                    .col(ColumnDef::new(Identities::EmailVouched).boolean().not_null())
                    .col(
                        ColumnDef::new(Identities::LinkedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .primary_key(Index::create().col(Identities::Provider).col(Identities::Subject))
                    .foreign_key(
                        ForeignKey::create()
                            .name("identities_user_id_fkey")
                            .from(Identities::Table, Identities::UserId)
                            .to(Users::Table, Users::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // One identity per provider and account: "disconnect GitHub" names one.
        manager
            .create_index(
                Index::create()
                    .name("identities_user_id_provider_key")
                    .table(Identities::Table)
                    .col(Identities::UserId)
                    .col(Identities::Provider)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "INSERT INTO identities (provider, subject, user_id, email, email_vouched, linked_at) \
                 SELECT 'google', google_sub, id, email, TRUE, updated_at FROM users \
                 WHERE google_sub IS NOT NULL",
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ProviderTickets::Table)
                    .col(
                        ColumnDef::new(ProviderTickets::TokenHash)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(ProviderTickets::Provider).string().not_null())
                    .col(ColumnDef::new(ProviderTickets::Subject).string().not_null())
                    .col(ColumnDef::new(ProviderTickets::Email).string().null())
                    .col(ColumnDef::new(ProviderTickets::EmailVouched).boolean().not_null())
                    .col(ColumnDef::new(ProviderTickets::Name).string().null())
                    .col(
                        ColumnDef::new(ProviderTickets::ExpiresAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("provider_tickets_expires_at_idx")
                    .table(ProviderTickets::Table)
                    .col(ProviderTickets::ExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ProviderTickets::Table).if_exists().to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Identities::Table).if_exists().to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Identities {
    Table,
    Provider,
    Subject,
    UserId,
    Email,
    EmailVouched,
    LinkedAt,
}

#[derive(DeriveIden)]
enum ProviderTickets {
    Table,
    TokenHash,
    Provider,
    Subject,
    Email,
    EmailVouched,
    Name,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}
