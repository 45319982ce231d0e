//! The audit log as the console reads it: filtered by person, kind and time range, newest
//! first, a page at a time; and the same rows as CSV, streamed a thousand at a time so a
//! million rows never sit in memory. The log holds no secret, and neither does the file.

use bytes::Bytes;
use chrono::{DateTime, Utc};
use entity::audit_events;
use futures_util::{Stream, StreamExt, stream};
use sea_orm::DatabaseConnection;
use uuid::Uuid;

use super::require_admin;
use crate::{
    accounts::sessions::Viewer,
    audit::{self, Filter, LogPage, Position},
    context::Context,
    error::{Error, FieldErrors, Result},
    paging::page_request,
};

/// Rows read per statement while exporting.
const EXPORT_BATCH: u64 = 1_000;
pub const CSV_HEADER: &str = "at,kind,userId,actorId,ip,userAgent,detail\n";

#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LogForm {
    pub user_id: Option<String>,
    pub kind: Option<String>,
    /// RFC 3339, inclusive.
    pub from: Option<String>,
    /// RFC 3339, exclusive.
    pub to: Option<String>,
    pub limit: Option<i32>,
    pub cursor: Option<String>,
}

/// An export's filters: the log's, without its paging (a `limit` or `cursor` given anyway is
/// ignored rather than read, so it cannot spoil the request).
#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ExportForm {
    pub user_id: Option<String>,
    pub kind: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

impl From<ExportForm> for LogForm {
    fn from(form: ExportForm) -> Self {
        Self {
            user_id: form.user_id,
            kind: form.kind,
            from: form.from,
            to: form.to,
            ..Self::default()
        }
    }
}

fn filter(form: &LogForm, errors: &mut FieldErrors) -> Filter {
    let present = |value: &Option<String>| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let time = |field: &str, value: Option<String>, errors: &mut FieldErrors| {
        value.and_then(|v| {
            errors.check(
                field,
                DateTime::parse_from_rfc3339(&v)
                    .map(|at| at.with_timezone(&Utc))
                    .map_err(|_| format!("{field} must be a date and time (RFC 3339)")),
            )
        })
    };
    let user_id = present(&form.user_id).and_then(|id| {
        errors.check(
            "userId",
            Uuid::parse_str(&id).map_err(|_| "Invalid user id".to_owned()),
        )
    });
    // Kinds are lowercase; `SIGN_IN` asks for the same one.
    let kind = present(&form.kind).and_then(|kind| {
        let kind = kind.to_ascii_lowercase();
        let known = kind.len() <= 64 && kind.chars().all(|c| c.is_ascii_lowercase() || c == '_');
        errors.check(
            "kind",
            if known {
                Ok(kind)
            } else {
                Err("Invalid kind".to_owned())
            },
        )
    });
    Filter {
        user_id,
        kind,
        from: time("from", present(&form.from), errors),
        to: time("to", present(&form.to), errors),
    }
}

/// A page of the filtered log: `limit` (1-100, default 50) events after `cursor`.
///
/// # Errors
/// 403 for anyone but an admin; field errors for the filters, limit or cursor.
pub async fn list(ctx: &Context, viewer: &Viewer, form: LogForm) -> Result<LogPage> {
    require_admin(viewer)?;
    let mut errors = FieldErrors::new();
    let filter = filter(&form, &mut errors);
    let page = errors.together(page_request(
        form.limit,
        50,
        100,
        form.cursor.as_deref(),
        audit::cursor_position,
    ))?;
    audit::read_page(
        &ctx.db,
        &filter,
        page.after,
        u64::try_from(page.limit).unwrap_or(50),
    )
    .await
}

/// The filter of an export, checked before the download starts.
///
/// # Errors
/// 403 for anyone but an admin; field errors for the filters.
pub fn export_filter(viewer: &Viewer, form: &LogForm) -> Result<Filter> {
    require_admin(viewer)?;
    let mut errors = FieldErrors::new();
    let filter = filter(form, &mut errors);
    errors.into_result()?;
    Ok(filter)
}

/// One CSV field: quoted when it must be, and a leading `=`, `+`, `-` or `@` defused so a
/// spreadsheet never runs a value as a formula. A `;` or a tab is quoted too: a spreadsheet in a
/// locale that separates by them would split the field, and the part after could start with `=`.
fn field(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    if value.contains([',', ';', '\t', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

fn row(event: &audit_events::Model) -> String {
    let id = |id: Option<Uuid>| id.map(|id| id.to_string()).unwrap_or_default();
    let text = |value: &Option<String>| field(value.as_deref().unwrap_or(""));
    format!(
        "{},{},{},{},{},{},{}\n",
        event.at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
        field(&event.kind),
        id(event.user_id),
        id(event.actor_id),
        text(&event.ip),
        text(&event.user_agent),
        text(&event.detail),
    )
}

/// The filtered log as CSV, header first, newest first, read a thousand rows at a time. Fused:
/// a reader may poll again after the end (the compression layer does), and hears the end again.
pub fn export(db: DatabaseConnection, filter: Filter) -> impl Stream<Item = Result<Bytes, Error>> {
    enum Step {
        Header,
        After(Option<Position>),
        Done,
    }
    stream::unfold(Step::Header, move |step| {
        let db = db.clone();
        let filter = filter.clone();
        async move {
            let after = match step {
                Step::Header => {
                    return Some((Ok(Bytes::from_static(CSV_HEADER.as_bytes())), Step::After(None)));
                }
                Step::After(after) => after,
                Step::Done => return None,
            };
            match audit::page(&db, &filter, after, EXPORT_BATCH).await {
                Ok(events) if events.is_empty() => None,
                Ok(events) => {
                    let next = events.last().map(|e| Position { at: e.at, id: e.id });
                    let full = events.len() as u64 == EXPORT_BATCH;
                    let chunk: String = events.iter().map(row).collect();
                    Some((
                        Ok(Bytes::from(chunk)),
                        if full { Step::After(next) } else { Step::Done },
                    ))
                }
                Err(err) => Some((Err(err), Step::Done)),
            }
        }
    })
    .fuse()
}

#[cfg(test)]
mod tests {
    use super::field;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(field("sign_in"), "sign_in");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(field("-1"), "'-1");
    }
}
