//! Each client's ID token algorithm (OpenID Connect Dynamic Client Registration's
//! `id_token_signed_response_alg`): RS256, which every client supports and every existing
//! client keeps, or EdDSA, which the discovery document offers and signs a token in a fraction
//! of RS256's time.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(OauthClients::Table)
                    .add_column(
                        ColumnDef::new(OauthClients::IdTokenSignedResponseAlg)
                            .string()
                            .not_null()
                            .default("RS256"),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(OauthClients::Table)
                    .drop_column(OauthClients::IdTokenSignedResponseAlg)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum OauthClients {
    Table,
    IdTokenSignedResponseAlg,
}
