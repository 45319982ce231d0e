//! An account: identity, credentials, profile and preferences.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub name: String,
    /// Stored lowercased; the unique index `users_email_key` makes it the account's identity.
    #[sea_orm(unique)]
    pub email: String,
    pub country_code: String,
    /// The country code joined with the digits, e.g. `+919876543210`.
    pub phone: String,
    /// Argon2id PHC string; `None` for accounts created through Google.
    pub password_hash: Option<String>,
    pub role: Role,
    pub status: AccountStatus,
    pub email_verified: bool,
    pub two_factor_enabled: bool,
    /// The authenticator secret (raw bytes in base32): set when enrolment starts, in use once
    /// `two_factor_enabled`.
    pub totp_secret: Option<String>,
    /// The last time step whose code was accepted: a code works once.
    pub totp_last_step: Option<i64>,
    pub bio: Option<String>,
    pub website: Option<String>,
    pub born: Option<Date>,
    pub social_github: Option<String>,
    pub social_linkedin: Option<String>,
    pub social_instagram: Option<String>,
    pub social_twitter: Option<String>,
    pub social_facebook: Option<String>,
    pub address_street: Option<String>,
    pub address_city: Option<String>,
    pub address_state: Option<String>,
    pub address_zip: Option<String>,
    pub address_country: Option<String>,
    pub notify_email: bool,
    pub notify_sms: bool,
    pub notify_push: bool,
    pub theme: String,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
    /// The last time a session began (any way in); the admin console shows it.
    pub last_sign_in_at: Option<DateTimeUtc>,
}

/// Who the account is for: a platform's people, or the suite's admins. Stored as its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum Role {
    #[sea_orm(string_value = "career")]
    Career,
    #[sea_orm(string_value = "campus")]
    Campus,
    #[sea_orm(string_value = "hire")]
    Hire,
    #[sea_orm(string_value = "admin")]
    Admin,
}

impl Role {
    /// The stored and published name (`career`, `campus`, `hire`, `admin`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Career => "career",
            Self::Campus => "campus",
            Self::Hire => "hire",
            Self::Admin => "admin",
        }
    }
}

/// Where the account stands: `pending` until the email is verified, then `active`;
/// `suspended` when an admin blocks it. Stored as its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AccountStatus {
    #[sea_orm(string_value = "pending")]
    Pending,
    #[sea_orm(string_value = "active")]
    Active,
    #[sea_orm(string_value = "suspended")]
    Suspended,
}

impl AccountStatus {
    /// The stored and published name (`pending`, `active`, `suspended`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Active => "active",
            Self::Suspended => "suspended",
        }
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(has_many = "super::sessions::Entity")]
    Sessions,
    #[sea_orm(has_many = "super::email_codes::Entity")]
    EmailCodes,
    #[sea_orm(has_many = "super::password_reset_tokens::Entity")]
    PasswordResetTokens,
    #[sea_orm(has_many = "super::news::Entity")]
    News,
}

impl Related<super::sessions::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Sessions.def()
    }
}

impl Related<super::news::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::News.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
