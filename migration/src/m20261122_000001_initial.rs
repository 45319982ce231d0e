//! Users, sessions, email codes, reset tokens, news, the mail outbox and rate-limit windows.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_table(users()).await?;
        manager.create_table(sessions()).await?;
        manager
            .create_index(
                Index::create()
                    .name("sessions_user_id_idx")
                    .table(Sessions::Table)
                    .col(Sessions::UserId)
                    .to_owned(),
            )
            .await?;
        manager.create_table(email_codes()).await?;
        manager.create_table(password_reset_tokens()).await?;
        manager
            .create_index(
                Index::create()
                    .name("password_reset_tokens_user_id_idx")
                    .table(PasswordResetTokens::Table)
                    .col(PasswordResetTokens::UserId)
                    .to_owned(),
            )
            .await?;
        manager.create_table(news()).await?;
        manager
            .create_index(
                Index::create()
                    .name("news_feed_idx")
                    .table(News::Table)
                    .col(News::Published)
                    .col(News::CreatedAt)
                    .col(News::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("news_author_id_idx")
                    .table(News::Table)
                    .col(News::AuthorId)
                    .to_owned(),
            )
            .await?;
        manager.create_table(mail_outbox()).await?;
        manager
            .create_index(
                Index::create()
                    .name("mail_outbox_due_idx")
                    .table(MailOutbox::Table)
                    .col(MailOutbox::SentAt)
                    .col(MailOutbox::NextAttemptAt)
                    .to_owned(),
            )
            .await?;
        manager.create_table(rate_limits()).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            RateLimits::Table.into_iden(),
            MailOutbox::Table.into_iden(),
            News::Table.into_iden(),
            PasswordResetTokens::Table.into_iden(),
            EmailCodes::Table.into_iden(),
            Sessions::Table.into_iden(),
            Users::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

fn id(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).uuid().not_null().primary_key().to_owned()
}

fn text(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).string().not_null().to_owned()
}

fn optional_text(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).string().null().to_owned()
}

fn long_text(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).text().not_null().to_owned()
}

fn flag(col: impl IntoIden, default: bool) -> ColumnDef {
    ColumnDef::new(col)
        .boolean()
        .not_null()
        .default(default)
        .to_owned()
}

fn counter(col: impl IntoIden) -> ColumnDef {
    ColumnDef::new(col).integer().not_null().default(0).to_owned()
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

fn owned_by_user(name: &str, table: impl IntoIden, col: impl IntoIden) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(name)
        .from(table, col)
        .to(Users::Table, Users::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

fn users() -> TableCreateStatement {
    Table::create()
        .table(Users::Table)
        .col(id(Users::Id))
        .col(text(Users::Name))
        .col(text(Users::Email))
        .col(text(Users::CountryCode))
        .col(text(Users::Phone))
        .col(optional_text(Users::PasswordHash))
        .col(text(Users::Role))
        .col(text(Users::Status))
        .col(flag(Users::EmailVerified, false))
        .col(flag(Users::TwoFactorEnabled, false))
        .col(optional_text(Users::GoogleSub))
        .col(ColumnDef::new(Users::Bio).text().null())
        .col(optional_text(Users::Website))
        .col(ColumnDef::new(Users::Born).date().null())
        .col(optional_text(Users::SocialGithub))
        .col(optional_text(Users::SocialLinkedin))
        .col(optional_text(Users::SocialInstagram))
        .col(optional_text(Users::SocialTwitter))
        .col(optional_text(Users::SocialFacebook))
        .col(optional_text(Users::AddressStreet))
        .col(optional_text(Users::AddressCity))
        .col(optional_text(Users::AddressState))
        .col(optional_text(Users::AddressZip))
        .col(optional_text(Users::AddressCountry))
        .col(flag(Users::NotifyEmail, true))
        .col(flag(Users::NotifySms, false))
        .col(flag(Users::NotifyPush, true))
        .col(ColumnDef::new(Users::Theme).string().not_null().default("dark"))
        .col(counter(Users::FailedLogins))
        .col(optional_instant(Users::LockedUntil))
        .col(instant(Users::CreatedAt))
        .col(instant(Users::UpdatedAt))
        .index(Index::create().name("users_email_key").col(Users::Email).unique())
        .index(
            Index::create()
                .name("users_google_sub_key")
                .col(Users::GoogleSub)
                .unique(),
        )
        .to_owned()
}

fn sessions() -> TableCreateStatement {
    Table::create()
        .table(Sessions::Table)
        .col(id(Sessions::Id))
        .col(ColumnDef::new(Sessions::UserId).uuid().not_null())
        .col(optional_text(Sessions::UserAgent))
        .col(instant(Sessions::CreatedAt))
        .col(instant(Sessions::ExpiresAt))
        .foreign_key(&mut owned_by_user(
            "sessions_user_id_fkey",
            Sessions::Table,
            Sessions::UserId,
        ))
        .to_owned()
}

fn email_codes() -> TableCreateStatement {
    Table::create()
        .table(EmailCodes::Table)
        .col(id(EmailCodes::Id))
        .col(ColumnDef::new(EmailCodes::UserId).uuid().not_null())
        .col(text(EmailCodes::CodeHash))
        .col(counter(EmailCodes::Attempts))
        .col(instant(EmailCodes::CreatedAt))
        .col(instant(EmailCodes::ExpiresAt))
        .index(
            Index::create()
                .name("email_codes_user_id_key")
                .col(EmailCodes::UserId)
                .unique(),
        )
        .foreign_key(&mut owned_by_user(
            "email_codes_user_id_fkey",
            EmailCodes::Table,
            EmailCodes::UserId,
        ))
        .to_owned()
}

fn password_reset_tokens() -> TableCreateStatement {
    Table::create()
        .table(PasswordResetTokens::Table)
        .col(id(PasswordResetTokens::Id))
        .col(ColumnDef::new(PasswordResetTokens::UserId).uuid().not_null())
        .col(text(PasswordResetTokens::TokenHash))
        .col(instant(PasswordResetTokens::CreatedAt))
        .col(instant(PasswordResetTokens::ExpiresAt))
        .col(optional_instant(PasswordResetTokens::UsedAt))
        .index(
            Index::create()
                .name("password_reset_tokens_token_hash_key")
                .col(PasswordResetTokens::TokenHash)
                .unique(),
        )
        .foreign_key(&mut owned_by_user(
            "password_reset_tokens_user_id_fkey",
            PasswordResetTokens::Table,
            PasswordResetTokens::UserId,
        ))
        .to_owned()
}

fn news() -> TableCreateStatement {
    Table::create()
        .table(News::Table)
        .col(id(News::Id))
        .col(text(News::Title))
        .col(text(News::Summary))
        .col(long_text(News::Body))
        .col(optional_text(News::ImageUrl))
        .col(flag(News::Published, false))
        .col(optional_instant(News::PublishedAt))
        .col(ColumnDef::new(News::AuthorId).uuid().null())
        .col(instant(News::CreatedAt))
        .col(instant(News::UpdatedAt))
        .foreign_key(
            ForeignKey::create()
                .name("news_author_id_fkey")
                .from(News::Table, News::AuthorId)
                .to(Users::Table, Users::Id)
                .on_delete(ForeignKeyAction::SetNull),
        )
        .to_owned()
}

fn mail_outbox() -> TableCreateStatement {
    Table::create()
        .table(MailOutbox::Table)
        .col(id(MailOutbox::Id))
        .col(text(MailOutbox::Recipient))
        .col(text(MailOutbox::Subject))
        .col(long_text(MailOutbox::TextBody))
        .col(long_text(MailOutbox::HtmlBody))
        .col(counter(MailOutbox::Attempts))
        .col(instant(MailOutbox::NextAttemptAt))
        .col(optional_instant(MailOutbox::LockedUntil))
        .col(optional_instant(MailOutbox::SentAt))
        .col(ColumnDef::new(MailOutbox::LastError).text().null())
        .col(instant(MailOutbox::CreatedAt))
        .to_owned()
}

fn rate_limits() -> TableCreateStatement {
    Table::create()
        .table(RateLimits::Table)
        .col(ColumnDef::new(RateLimits::Key).string().not_null().primary_key())
        .col(instant(RateLimits::WindowStartedAt))
        .col(counter(RateLimits::Hits))
        .to_owned()
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    Name,
    Email,
    CountryCode,
    Phone,
    PasswordHash,
    Role,
    Status,
    EmailVerified,
    TwoFactorEnabled,
    GoogleSub,
    Bio,
    Website,
    Born,
    SocialGithub,
    SocialLinkedin,
    SocialInstagram,
    SocialTwitter,
    SocialFacebook,
    AddressStreet,
    AddressCity,
    AddressState,
    AddressZip,
    AddressCountry,
    NotifyEmail,
    NotifySms,
    NotifyPush,
    Theme,
    FailedLogins,
    LockedUntil,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Sessions {
    Table,
    Id,
    UserId,
    UserAgent,
    CreatedAt,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum EmailCodes {
    Table,
    Id,
    UserId,
    CodeHash,
    Attempts,
    CreatedAt,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum PasswordResetTokens {
    Table,
    Id,
    UserId,
    TokenHash,
    CreatedAt,
    ExpiresAt,
    UsedAt,
}

#[derive(DeriveIden)]
enum News {
    Table,
    Id,
    Title,
    Summary,
    Body,
    ImageUrl,
    Published,
    PublishedAt,
    AuthorId,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum MailOutbox {
    Table,
    Id,
    Recipient,
    Subject,
    TextBody,
    HtmlBody,
    Attempts,
    NextAttemptAt,
    LockedUntil,
    SentAt,
    LastError,
    CreatedAt,
}

#[derive(DeriveIden)]
enum RateLimits {
    Table,
    Key,
    WindowStartedAt,
    Hits,
}
