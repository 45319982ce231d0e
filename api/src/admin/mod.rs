//! The admin console's domain: finding people and acting on their accounts, the audit log with
//! its CSV export, and the organizations' seats. Every call is for admins only, and every
//! action is audited with the acting admin, the target and the reason.

pub mod audit_log;
pub mod orgs;
pub mod users;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, DatabaseBackend, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Statement,
    sea_query::{Expr, SimpleExpr},
};
use uuid::Uuid;

use crate::{
    accounts::sessions::Viewer,
    error::{Error, Result},
    paging::PageRequest,
};

pub const ADMINS_ONLY: &str = "Only admins can use the admin console";

/// The longest search, in characters.
pub const MAX_QUERY: usize = 100;

/// A search's `query`, trimmed; `None` when it is empty. Names and addresses
/// hold no control character, so a search with one could find nothing (and a NUL is not even
/// text to PostgreSQL).
///
/// # Errors
/// The field's message for a query over [`MAX_QUERY`] characters or with a control character.
fn search_query(raw: Option<&str>) -> std::result::Result<Option<String>, String> {
    let Some(query) = raw.map(|q| q.trim().to_owned()).filter(|q| !q.is_empty()) else {
        return Ok(None);
    };
    if query.chars().count() > MAX_QUERY {
        Err(format!("query must be at most {MAX_QUERY} characters"))
    } else if query.chars().any(char::is_control) {
        Err("query cannot contain control characters".to_owned())
    } else {
        Ok(Some(query))
    }
}

/// # Errors
/// 403 'Only admins can use the admin console'.
pub fn require_admin(viewer: &Viewer) -> Result<()> {
    viewer.require_admin(ADMINS_ONLY)
}

/// `column` as the console's indexes key it: lowercased for names, compared bytewise, so a
/// prefix is one range of the index on both databases (see migration 11).
fn key(backend: DatabaseBackend, column: &str, lowered: bool) -> String {
    let value = if lowered {
        format!("lower({column})")
    } else {
        column.to_owned()
    };
    match backend {
        DatabaseBackend::Postgres => format!("({value} COLLATE \"C\")"),
        _ => value,
    }
}

/// `key op value`, with the value bound (sea-query takes each database's own placeholder in
/// a custom expression).
fn compare(backend: DatabaseBackend, key: &str, op: &str, value: &str) -> SimpleExpr {
    let placeholder = match backend {
        DatabaseBackend::Postgres => "$1",
        _ => "?",
    };
    sea_orm::sea_query::Expr::cust_with_values(format!("{key} {op} {placeholder}"), [value.to_owned()])
}

/// The keys of `column` that start with `query`, whatever its case: one range of its index
/// for each form the key may hold it in (see [`lowered_forms`]).
fn starts_with(backend: DatabaseBackend, column: &str, lowered: bool, query: &str) -> Condition {
    let key = key(backend, column, lowered);
    let prefixes = if lowered {
        lowered_forms(query)
    } else {
        vec![query.to_lowercase()]
    };
    prefixes.iter().fold(Condition::any(), |any, prefix| {
        // The smallest string above every string that starts with `prefix`.
        let end = format!("{prefix}\u{10FFFF}");
        any.add(
            Condition::all()
                .add(compare(backend, &key, ">=", prefix))
                .add(compare(backend, &key, "<", &end)),
        )
    })
}

/// The forms a name starting with `query` may take in `lower(name)`. PostgreSQL lowers every
/// letter; SQLite only `A`-`Z`, keeping "Ünsal" and "Иван" as they were typed. So besides the
/// query lowercased, it is looked for with only its ASCII letters lowered (as typed), and as
/// names are mostly written (each word's first letter a capital, the rest small): "ünsal öz",
/// "ÜNSAL ÖZ" and "Ünsal Öz" all find "Ünsal Öz" on both databases.
fn lowered_forms(query: &str) -> Vec<String> {
    let mut capitalised = String::with_capacity(query.len());
    let mut word_start = true;
    for c in query.chars() {
        if word_start && !c.is_ascii() {
            capitalised.extend(c.to_uppercase());
        } else {
            capitalised.extend(c.to_lowercase());
        }
        word_start = c.is_whitespace() || c == '-';
    }
    let mut forms = vec![
        query.to_lowercase(),
        query.to_ascii_lowercase(),
        capitalised.to_ascii_lowercase(),
    ];
    forms.sort_unstable();
    forms.dedup();
    forms
}

/// Which key a list is in order of: the lowercased name, or the email.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Name,
    Email,
}

impl Order {
    fn key(self, backend: DatabaseBackend) -> String {
        match self {
            Self::Name => key(backend, "name", true),
            Self::Email => key(backend, "email", false),
        }
    }
}

/// A page of `E` (a table with `id` and the order's column) passing `condition`, in `order`
/// after the page's cursor, and the cursor of the next page when more rows follow: with a
/// prefix condition on the same key, one range of one index, however large the table.
async fn ordered_page<E: EntityTrait>(
    db: &impl ConnectionTrait,
    (table, id): (&str, E::Column),
    order: Order,
    condition: Condition,
    page: &PageRequest<(String, Uuid)>,
    id_of: impl Fn(&E::Model) -> Uuid,
) -> Result<(Vec<E::Model>, Option<String>)> {
    let backend = db.get_database_backend();
    let name_key = order.key(backend);
    let mut condition = condition;
    if let Some((after_key, after_id)) = &page.after {
        condition = condition.add(
            Condition::any()
                .add(compare(backend, &name_key, ">", after_key))
                .add(
                    Condition::all()
                        .add(compare(backend, &name_key, "=", after_key))
                        .add(id.gt(*after_id)),
                ),
        );
    }
    let mut rows = E::find()
        .filter(condition)
        .order_by_asc(Expr::cust(name_key))
        .order_by_asc(id)
        .limit(u64::try_from(page.limit + 1).unwrap_or(u64::MAX))
        .all(db)
        .await?;
    let more = rows.len() > page.limit;
    rows.truncate(page.limit);
    let next_cursor = match rows.last() {
        Some(last) if more => Some(cursor_after(db, table, &order.key(backend), id_of(last)).await?),
        _ => None,
    };
    Ok((rows, next_cursor))
}

/// Where a page starts: after the row whose key and id these are.
fn encode_cursor(name_key: &str, id: Uuid) -> String {
    URL_SAFE_NO_PAD.encode(format!("{name_key}\u{0}{id}"))
}

/// A console list's page request (50 by default, 100 at most, after a cursor of
/// [`decode_cursor`]'s), reported with the filters' `errors` in one answer.
///
/// # Errors
/// Every field error at once: the filters', the limit's and the cursor's.
fn console_page(
    errors: crate::error::FieldErrors,
    limit: Option<i32>,
    cursor: Option<&str>,
) -> Result<PageRequest<(String, Uuid)>> {
    errors.together(crate::paging::page_request(limit, 50, 100, cursor, decode_cursor))
}

fn decode_cursor(raw: &str) -> Option<(String, Uuid)> {
    let text = String::from_utf8(URL_SAFE_NO_PAD.decode(raw).ok()?).ok()?;
    let (name_key, id) = text.split_once('\u{0}')?;
    Some((name_key.to_owned(), Uuid::parse_str(id).ok()?))
}

/// The cursor after the row `id` of `table` (`users` or `organizations`), its key as the
/// database computes it (SQLite's `lower` is not Rust's).
async fn cursor_after(db: &impl ConnectionTrait, table: &str, key_sql: &str, id: Uuid) -> Result<String> {
    let backend = db.get_database_backend();
    let sql = format!("SELECT {key_sql} AS name_key FROM {table} WHERE id = $1");
    let row = db
        .query_one_raw(Statement::from_sql_and_values(backend, sql, [id.into()]))
        .await?
        .ok_or_else(|| Error::internal(anyhow::anyhow!("the last row of a page vanished")))?;
    let name_key: String = row.try_get("", "name_key")?;
    Ok(encode_cursor(&name_key, id))
}
