//! Delivers the outbox over SMTP: woken on insert, polling as a fallback, retrying with
//! backoff. A row is claimed before it is sent, so two instances never send it twice.

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use chrono::Utc;
use entity::mail_outbox;
use lettre::{
    Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::Mailbox,
    message::MultiPart,
};
use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, EntityTrait, Order, QueryFilter, QueryOrder, QuerySelect,
    sea_query::{Expr, NullOrdering},
};
use tokio::sync::{Notify, watch};

/// Fallback polling, for mail committed by another instance.
const POLL: Duration = Duration::from_secs(1);
/// How long a claim protects a row from other workers while it is being sent.
const CLAIM: chrono::Duration = chrono::Duration::seconds(60);
/// The longest one delivery may take, from connecting to the server's answer to the message.
/// lettre's own timeout bounds the connection only: a server that accepts and then says
/// nothing would hold the worker, and every mail behind it, for ever. Well inside [`CLAIM`],
/// so no other instance takes the row while it is being sent.
const SEND_LIMIT: Duration = Duration::from_secs(30);
/// After this many failed tries a mail is left for an operator to look at.
pub const MAX_ATTEMPTS: i32 = 12;
const BATCH: u64 = 20;

pub struct Worker {
    db: DatabaseConnection,
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    wake: Arc<Notify>,
}

impl Worker {
    /// # Errors
    /// When the SMTP URL or the sender address cannot be parsed.
    pub fn new(
        db: DatabaseConnection,
        smtp_url: &str,
        from: &str,
        wake: Arc<Notify>,
    ) -> anyhow::Result<Self> {
        let transport: AsyncSmtpTransport<Tokio1Executor> =
            AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
                .context("SMTP_URL is not a valid smtp:// or smtps:// URL")?
                .timeout(Some(Duration::from_secs(10)))
                .build();
        let from = from.parse().context("MAIL_FROM is not a valid address")?;
        Ok(Self {
            db,
            transport,
            from,
            wake,
        })
    }

    /// Runs until `shutdown` flips.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        loop {
            if let Err(err) = self.deliver_due().await {
                tracing::warn!(error = ?err, "mail delivery pass failed");
            }
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(POLL) => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    async fn deliver_due(&self) -> anyhow::Result<()> {
        loop {
            let now = Utc::now();
            let due = mail_outbox::Entity::find()
                .filter(mail_outbox::Column::SentAt.is_null())
                .filter(mail_outbox::Column::NextAttemptAt.lte(now))
                .filter(mail_outbox::Column::Attempts.lt(MAX_ATTEMPTS))
                .filter(unclaimed(now))
                .filter(still_useful(now))
                // The code or link that expires soonest goes first: a sign-up code is not
                // held behind an organization's hundreds of invitations (days to live), and
                // notices without a secret go last.
                .order_by_with_nulls(mail_outbox::Column::SecretUntil, Order::Asc, NullOrdering::Last)
                .order_by_asc(mail_outbox::Column::CreatedAt)
                .limit(BATCH)
                .all(&self.db)
                .await?;
            if due.is_empty() {
                return Ok(());
            }
            let mut delivered_any = false;
            for mail in due {
                if !self.claim(&mail).await? {
                    continue;
                }
                match self.send(&mail).await {
                    Ok(()) => {
                        delivered_any = true;
                        self.mark_sent(&mail).await?;
                    }
                    Err(err) => {
                        tracing::warn!(mail_id = %mail.id, attempt = mail.attempts + 1, error = ?err, "mail not delivered; will retry");
                        self.mark_failed(&mail, &format!("{err:#}")).await?;
                    }
                }
            }
            if !delivered_any {
                // Every due mail failed: the server is likely down; wait for the backoff.
                return Ok(());
            }
        }
    }

    async fn claim(&self, mail: &mail_outbox::Model) -> anyhow::Result<bool> {
        let now = Utc::now();
        let claimed = mail_outbox::Entity::update_many()
            .col_expr(mail_outbox::Column::LockedUntil, Expr::value(now + CLAIM))
            .filter(mail_outbox::Column::Id.eq(mail.id))
            .filter(mail_outbox::Column::SentAt.is_null())
            .filter(unclaimed(now))
            .exec(&self.db)
            .await?;
        Ok(claimed.rows_affected == 1)
    }

    async fn send(&self, mail: &mail_outbox::Model) -> anyhow::Result<()> {
        let message = Message::builder()
            .from(self.from.clone())
            // A bare address: user-supplied text never becomes a display name or a header.
            .to(Mailbox::new(
                None,
                mail.recipient.parse::<Address>().context("recipient address")?,
            ))
            // The row's own id: a copy sent again (a crash between the server's acceptance and
            // our record of it) carries the same one, which receiving servers drop.
            .message_id(Some(format!("<{}@{}>", mail.id, self.from.email.domain())))
            .subject(&mail.subject)
            .multipart(MultiPart::alternative_plain_html(
                mail.text_body.clone(),
                mail.html_body.clone(),
            ))
            .context("building the message")?;
        tokio::time::timeout(SEND_LIMIT, self.transport.send(message))
            .await
            .map_err(|_| anyhow::anyhow!("the mail server did not answer within {SEND_LIMIT:?}"))?
            .context("SMTP")?;
        Ok(())
    }

    async fn mark_sent(&self, mail: &mail_outbox::Model) -> anyhow::Result<()> {
        let mut update = mail_outbox::Entity::update_many();
        if mail.secret_until.is_some() {
            // Delivered: the outbox need not keep the code or the link any longer (a code
            // mail's subject carries the code too).
            update = update
                .col_expr(mail_outbox::Column::Subject, Expr::value(super::CLEARED_SUBJECT))
                .col_expr(mail_outbox::Column::TextBody, Expr::value(""))
                .col_expr(mail_outbox::Column::HtmlBody, Expr::value(""));
        }
        update
            .col_expr(mail_outbox::Column::SentAt, Expr::value(Some(Utc::now())))
            .col_expr(mail_outbox::Column::Attempts, Expr::value(mail.attempts + 1))
            .col_expr(
                mail_outbox::Column::LockedUntil,
                Expr::value(Option::<chrono::DateTime<Utc>>::None),
            )
            .col_expr(
                mail_outbox::Column::LastError,
                Expr::value(Option::<String>::None),
            )
            .filter(mail_outbox::Column::Id.eq(mail.id))
            .exec(&self.db)
            .await?;
        tracing::info!(mail_id = %mail.id, "mail delivered");
        metrics::counter!("mail_delivered_total").increment(1);
        Ok(())
    }

    async fn mark_failed(&self, mail: &mail_outbox::Model, error: &str) -> anyhow::Result<()> {
        let attempts = mail.attempts + 1;
        let next = Utc::now() + backoff(attempts);
        mail_outbox::Entity::update_many()
            .col_expr(mail_outbox::Column::Attempts, Expr::value(attempts))
            .col_expr(mail_outbox::Column::NextAttemptAt, Expr::value(next))
            .col_expr(
                mail_outbox::Column::LockedUntil,
                Expr::value(Option::<chrono::DateTime<Utc>>::None),
            )
            .col_expr(
                mail_outbox::Column::LastError,
                Expr::value(Some(error.chars().take(1000).collect::<String>())),
            )
            .filter(mail_outbox::Column::Id.eq(mail.id))
            .exec(&self.db)
            .await?;
        metrics::counter!("mail_failed_attempts_total").increment(1);
        Ok(())
    }
}

/// A code or link past its expiry is not worth sending.
fn still_useful(now: chrono::DateTime<Utc>) -> Condition {
    Condition::any()
        .add(mail_outbox::Column::SecretUntil.is_null())
        .add(mail_outbox::Column::SecretUntil.gt(now))
}

fn unclaimed(now: chrono::DateTime<Utc>) -> Condition {
    Condition::any()
        .add(mail_outbox::Column::LockedUntil.is_null())
        .add(mail_outbox::Column::LockedUntil.lt(now))
}

/// 1 s, 2 s, 4 s … capped at ten minutes.
pub fn backoff(attempts: i32) -> chrono::Duration {
    let exponent = u32::try_from(attempts.saturating_sub(1).clamp(0, 10)).unwrap_or(10);
    chrono::Duration::seconds((1_i64 << exponent).min(600))
}

#[cfg(test)]
mod tests {
    use super::backoff;

    #[test]
    fn backoff_doubles_and_is_capped() {
        assert_eq!(backoff(1).num_seconds(), 1);
        assert_eq!(backoff(2).num_seconds(), 2);
        assert_eq!(backoff(5).num_seconds(), 16);
        assert_eq!(backoff(30).num_seconds(), 600);
    }
}
