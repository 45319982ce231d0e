//! The transactional outbox: a mail is written in the transaction of the change that causes
//! it, and the worker delivers it once that commits.

use chrono::{DateTime, Utc};
use entity::mail_outbox;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, Set, sea_query::Expr,
};
use uuid::Uuid;

use super::Mail;
use crate::error::Result;

/// Writes `mail` to the outbox within the caller's transaction: it is sent if and only if
/// the change that caused it commits.
///
/// # Errors
/// On a database failure.
pub async fn enqueue(db: &impl ConnectionTrait, mail: Mail) -> Result<()> {
    insert(db, mail, None).await
}

/// Writes many mails to the outbox in one statement, within the caller's transaction.
///
/// # Errors
/// On a database failure.
pub async fn enqueue_all(db: &impl ConnectionTrait, mails: Vec<Mail>) -> Result<()> {
    if mails.is_empty() {
        return Ok(());
    }
    let now = Utc::now();
    mail_outbox::Entity::insert_many(mails.into_iter().map(|mail| row(mail, None, now)))
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Takes back the mails not yet delivered that carry a secret about `user_id` (codes, reset
/// and sign-in links), when the change in the caller's transaction ends those secrets: a mail
/// held back by an outage would otherwise arrive with a link that no longer works. Each is
/// marked delivered and emptied, as a delivered one is.
///
/// # Errors
/// On a database failure.
pub async fn withdraw_secrets_about(db: &impl ConnectionTrait, user_id: Uuid) -> Result<()> {
    withdraw(
        db,
        Condition::all()
            .add(mail_outbox::Column::UserId.eq(user_id))
            .add(mail_outbox::Column::SecretUntil.is_not_null()),
    )
    .await
}

/// Takes back the mail not yet delivered to `recipient` whose secret lives until `until` (an
/// invitation, by its expiry), as [`withdraw_secrets_about`] does.
///
/// # Errors
/// On a database failure.
pub async fn withdraw_secret(db: &impl ConnectionTrait, recipient: &str, until: DateTime<Utc>) -> Result<()> {
    withdraw(
        db,
        Condition::all()
            .add(mail_outbox::Column::Recipient.eq(recipient))
            .add(mail_outbox::Column::SecretUntil.eq(until)),
    )
    .await
}

async fn withdraw(db: &impl ConnectionTrait, which: Condition) -> Result<()> {
    mail_outbox::Entity::update_many()
        .col_expr(mail_outbox::Column::Subject, Expr::value(super::CLEARED_SUBJECT))
        .col_expr(mail_outbox::Column::TextBody, Expr::value(""))
        .col_expr(mail_outbox::Column::HtmlBody, Expr::value(""))
        .col_expr(mail_outbox::Column::SentAt, Expr::value(Some(Utc::now())))
        .filter(mail_outbox::Column::SentAt.is_null())
        .filter(which)
        .exec(db)
        .await?;
    Ok(())
}

/// Does what [`enqueue`] does, but the row is born delivered and empty (no subject, no body):
/// a request that must not mail anyone (a code for an address with no pending account) costs
/// what one that does costs, so timing tells nothing.
///
/// # Errors
/// On a database failure.
pub async fn enqueue_nothing(db: &impl ConnectionTrait, mail: Mail) -> Result<()> {
    let empty = Mail {
        subject: String::new(),
        text: String::new(),
        html: String::new(),
        ..mail
    };
    insert(db, empty, Some(Utc::now())).await
}

async fn insert(db: &impl ConnectionTrait, mail: Mail, sent_at: Option<DateTime<Utc>>) -> Result<()> {
    row(mail, sent_at, Utc::now()).insert(db).await?;
    Ok(())
}

fn row(mail: Mail, sent_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> mail_outbox::ActiveModel {
    mail_outbox::ActiveModel {
        id: Set(Uuid::new_v4()),
        recipient: Set(mail.to),
        subject: Set(mail.subject),
        text_body: Set(mail.text),
        html_body: Set(mail.html),
        attempts: Set(0),
        next_attempt_at: Set(now),
        locked_until: Set(None),
        sent_at: Set(sent_at),
        last_error: Set(None),
        created_at: Set(now),
        user_id: Set(mail.user_id),
        secret_until: Set(mail.secret_until),
    }
}
