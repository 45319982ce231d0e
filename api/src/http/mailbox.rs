//! `GET /dev/mailbox`: the outbox as a page, for a local run without a mail server.

use axum::{extract::State, response::Html};
use entity::mail_outbox;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::{error::Error, html::escape, state::AppState};

/// Newest first; the code or the link of each mail is in its text part, shown as is.
pub async fn page(State(state): State<AppState>) -> Result<Html<String>, super::error::ErrorResponse> {
    let mails = mail_outbox::Entity::find()
        // Rows written only so that a request costs the same (see `mail::enqueue_nothing`).
        .filter(mail_outbox::Column::Subject.ne(""))
        .order_by_desc(mail_outbox::Column::CreatedAt)
        .limit(100)
        .all(&state.db)
        .await
        .map_err(Error::from)?;
    let mut out = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Dev mailbox</title>\
         <style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#111}\
         article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}\
         pre{white-space:pre-wrap;background:#f6f6f6;padding:.75rem;border-radius:6px}\
         .meta{color:#555;font-size:.9rem}</style></head><body><h1>Dev mailbox</h1>\
         <p>Mail the server would send. Newest first; only under APP_ENV=local.</p>",
    );
    if mails.is_empty() {
        out.push_str("<p>No mail yet.</p>");
    }
    for mail in mails {
        out.push_str(&format!(
            "<article><h2>{}</h2><p class=\"meta\">To {} · {}</p><pre>{}</pre></article>",
            escape(&mail.subject),
            escape(&mail.recipient),
            mail.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
            linkify(&escape(&mail.text_body)),
        ));
    }
    out.push_str("</body></html>");
    Ok(Html(out))
}

fn linkify(escaped: &str) -> String {
    escaped
        .split_inclusive(char::is_whitespace)
        .map(|word| {
            let trimmed = word.trim_end();
            if trimmed.starts_with("http://") || trimmed.starts_with("https://") {
                format!("<a href=\"{trimmed}\">{trimmed}</a>{}", &word[trimmed.len()..])
            } else {
                word.to_owned()
            }
        })
        .collect()
}
