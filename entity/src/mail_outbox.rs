//! Mail waiting for (or done with) delivery. Written in the same transaction as its cause.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "mail_outbox")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub recipient: String,
    pub subject: String,
    #[sea_orm(column_type = "Text")]
    pub text_body: String,
    #[sea_orm(column_type = "Text")]
    pub html_body: String,
    pub attempts: i32,
    pub next_attempt_at: DateTimeUtc,
    /// A worker's claim on the row; another worker may take it once this has passed.
    pub locked_until: Option<DateTimeUtc>,
    pub sent_at: Option<DateTimeUtc>,
    pub last_error: Option<String>,
    pub created_at: DateTimeUtc,
    /// The account the mail is about; its mail goes when it is deleted.
    pub user_id: Option<Uuid>,
    /// For mail that carries a code or a link: its bodies are cleared once it is delivered or
    /// once this has passed, and it is never sent after it.
    pub secret_until: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::users::Entity",
        from = "Column::UserId",
        to = "super::users::Column::Id",
        on_delete = "Cascade"
    )]
    User,
}

impl ActiveModelBehavior for ActiveModel {}
