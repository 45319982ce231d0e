//! Talent Suite as an OpenID Provider: registered clients, signing keys, authorization codes,
//! access and refresh tokens (all stored hashed), remembered consents, and the back-channel
//! logout notices waiting for delivery.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_table(oauth_clients()).await?;
        manager.create_table(signing_keys()).await?;
        manager.create_table(oauth_codes()).await?;
        manager.create_table(oauth_tokens()).await?;
        manager.create_table(oauth_consents()).await?;
        manager.create_table(backchannel_logouts()).await?;
        for (name, table, col) in [
            (
                "oauth_tokens_grant_id_idx",
                OauthTokens::Table.into_iden(),
                OauthTokens::GrantId.into_iden(),
            ),
            (
                "oauth_tokens_session_id_idx",
                OauthTokens::Table.into_iden(),
                OauthTokens::SessionId.into_iden(),
            ),
            (
                "oauth_tokens_user_id_idx",
                OauthTokens::Table.into_iden(),
                OauthTokens::UserId.into_iden(),
            ),
            (
                "oauth_codes_user_id_idx",
                OauthCodes::Table.into_iden(),
                OauthCodes::UserId.into_iden(),
            ),
            (
                "oauth_codes_session_id_idx",
                OauthCodes::Table.into_iden(),
                OauthCodes::SessionId.into_iden(),
            ),
        ] {
            manager
                .create_index(Index::create().name(name).table(table).col(col).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            BackchannelLogouts::Table.into_iden(),
            OauthConsents::Table.into_iden(),
            OauthTokens::Table.into_iden(),
            OauthCodes::Table.into_iden(),
            SigningKeys::Table.into_iden(),
            OauthClients::Table.into_iden(),
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

fn optional_text(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).string().null().to_owned()
}

fn instant(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn optional_instant(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).timestamp_with_time_zone().null().to_owned()
}

fn uuid(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).uuid().not_null().to_owned()
}

fn cascade(
    name: &str,
    table: impl IntoIden,
    col: impl IntoIden,
    to: impl IntoIden,
    to_col: impl IntoIden,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(table, col)
        .to(to, to_col)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

fn oauth_clients() -> TableCreateStatement {
    Table::create()
        .table(OauthClients::Table)
        .col(text(OauthClients::ClientId).primary_key())
        .col(text(OauthClients::Name))
        .col(optional_text(OauthClients::SecretHash))
        .col(ColumnDef::new(OauthClients::RedirectUris).text().not_null())
        .col(
            ColumnDef::new(OauthClients::PostLogoutRedirectUris)
                .text()
                .not_null(),
        )
        .col(optional_text(OauthClients::BackchannelLogoutUri))
        .col(
            ColumnDef::new(OauthClients::FirstParty)
                .boolean()
                .not_null()
                .default(false),
        )
        .col(instant(OauthClients::CreatedAt))
        .to_owned()
}

fn signing_keys() -> TableCreateStatement {
    Table::create()
        .table(SigningKeys::Table)
        .col(text(SigningKeys::Kid).primary_key())
        .col(text(SigningKeys::Alg))
        .col(ColumnDef::new(SigningKeys::PrivatePem).text().not_null())
        .col(instant(SigningKeys::CreatedAt))
        .col(optional_instant(SigningKeys::RetiredAt))
        .to_owned()
}

fn oauth_codes() -> TableCreateStatement {
    Table::create()
        .table(OauthCodes::Table)
        .col(text(OauthCodes::CodeHash).primary_key())
        .col(uuid(OauthCodes::GrantId))
        .col(text(OauthCodes::ClientId))
        .col(uuid(OauthCodes::UserId))
        .col(uuid(OauthCodes::SessionId))
        .col(ColumnDef::new(OauthCodes::RedirectUri).text().not_null())
        .col(text(OauthCodes::CodeChallenge))
        .col(ColumnDef::new(OauthCodes::Nonce).text().null())
        .col(text(OauthCodes::Scope))
        .col(instant(OauthCodes::AuthTime))
        .col(instant(OauthCodes::ExpiresAt))
        .col(optional_instant(OauthCodes::UsedAt))
        .foreign_key(&mut cascade(
            "oauth_codes_client_id_fkey",
            OauthCodes::Table,
            OauthCodes::ClientId,
            OauthClients::Table,
            OauthClients::ClientId,
        ))
        .foreign_key(&mut cascade(
            "oauth_codes_user_id_fkey",
            OauthCodes::Table,
            OauthCodes::UserId,
            Users::Table,
            Users::Id,
        ))
        .foreign_key(&mut cascade(
            "oauth_codes_session_id_fkey",
            OauthCodes::Table,
            OauthCodes::SessionId,
            Sessions::Table,
            Sessions::Id,
        ))
        .to_owned()
}

fn oauth_tokens() -> TableCreateStatement {
    Table::create()
        .table(OauthTokens::Table)
        .col(text(OauthTokens::TokenHash).primary_key())
        .col(text(OauthTokens::Kind))
        .col(uuid(OauthTokens::GrantId))
        .col(text(OauthTokens::ClientId))
        .col(uuid(OauthTokens::UserId))
        .col(uuid(OauthTokens::SessionId))
        .col(text(OauthTokens::Scope))
        .col(instant(OauthTokens::AuthTime))
        .col(ColumnDef::new(OauthTokens::Nonce).text().null())
        .col(instant(OauthTokens::CreatedAt))
        .col(instant(OauthTokens::ExpiresAt))
        .col(optional_instant(OauthTokens::UsedAt))
        .foreign_key(&mut cascade(
            "oauth_tokens_client_id_fkey",
            OauthTokens::Table,
            OauthTokens::ClientId,
            OauthClients::Table,
            OauthClients::ClientId,
        ))
        .foreign_key(&mut cascade(
            "oauth_tokens_user_id_fkey",
            OauthTokens::Table,
            OauthTokens::UserId,
            Users::Table,
            Users::Id,
        ))
        .foreign_key(&mut cascade(
            "oauth_tokens_session_id_fkey",
            OauthTokens::Table,
            OauthTokens::SessionId,
            Sessions::Table,
            Sessions::Id,
        ))
        .to_owned()
}

fn oauth_consents() -> TableCreateStatement {
    Table::create()
        .table(OauthConsents::Table)
        .col(uuid(OauthConsents::UserId))
        .col(text(OauthConsents::ClientId))
        .col(text(OauthConsents::Scope))
        .col(instant(OauthConsents::CreatedAt))
        .primary_key(
            Index::create()
                .col(OauthConsents::UserId)
                .col(OauthConsents::ClientId),
        )
        .foreign_key(&mut cascade(
            "oauth_consents_client_id_fkey",
            OauthConsents::Table,
            OauthConsents::ClientId,
            OauthClients::Table,
            OauthClients::ClientId,
        ))
        .foreign_key(&mut cascade(
            "oauth_consents_user_id_fkey",
            OauthConsents::Table,
            OauthConsents::UserId,
            Users::Table,
            Users::Id,
        ))
        .to_owned()
}

fn backchannel_logouts() -> TableCreateStatement {
    Table::create()
        .table(BackchannelLogouts::Table)
        .col(uuid(BackchannelLogouts::Id).primary_key())
        .col(text(BackchannelLogouts::ClientId))
        .col(uuid(BackchannelLogouts::UserId))
        .col(uuid(BackchannelLogouts::SessionId))
        .col(
            ColumnDef::new(BackchannelLogouts::Attempts)
                .integer()
                .not_null()
                .default(0),
        )
        .col(instant(BackchannelLogouts::NextAttemptAt))
        .col(optional_instant(BackchannelLogouts::LockedUntil))
        .col(ColumnDef::new(BackchannelLogouts::LastError).text().null())
        .col(instant(BackchannelLogouts::CreatedAt))
        .foreign_key(&mut cascade(
            "backchannel_logouts_client_id_fkey",
            BackchannelLogouts::Table,
            BackchannelLogouts::ClientId,
            OauthClients::Table,
            OauthClients::ClientId,
        ))
        .to_owned()
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum Sessions {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum OauthClients {
    Table,
    ClientId,
    Name,
    SecretHash,
    RedirectUris,
    PostLogoutRedirectUris,
    BackchannelLogoutUri,
    FirstParty,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum SigningKeys {
    Table,
    Kid,
    Alg,
    PrivatePem,
    CreatedAt,
    RetiredAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum OauthCodes {
    Table,
    CodeHash,
    GrantId,
    ClientId,
    UserId,
    SessionId,
    RedirectUri,
    CodeChallenge,
    Nonce,
    Scope,
    AuthTime,
    ExpiresAt,
    UsedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum OauthTokens {
    Table,
    TokenHash,
    Kind,
    GrantId,
    ClientId,
    UserId,
    SessionId,
    Scope,
    AuthTime,
    Nonce,
    CreatedAt,
    ExpiresAt,
    UsedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum OauthConsents {
    Table,
    UserId,
    ClientId,
    Scope,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum BackchannelLogouts {
    Table,
    Id,
    ClientId,
    UserId,
    SessionId,
    Attempts,
    NextAttemptAt,
    LockedUntil,
    LastError,
    CreatedAt,
}
