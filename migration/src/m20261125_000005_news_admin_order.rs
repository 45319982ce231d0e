//! The feed as admins read it (drafts included) in its own order, so a deep page is an index
//! range like the public one, not a sort of every item.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name("news_created_at_id_idx")
                    .table(News::Table)
                    .col(News::CreatedAt)
                    .col(News::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("news_created_at_id_idx")
                    .table(News::Table)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum News {
    Table,
    CreatedAt,
    Id,
}
