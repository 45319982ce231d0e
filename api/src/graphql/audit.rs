//! The audit log for admins: newest first, paged, optionally for one account.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use entity::audit_events;
use uuid::Uuid;

use super::{context, errors::IntoGql};
use crate::{
    audit::{self, Position},
    error::{Error, FieldErrors},
    news::Cursor,
};

pub const ADMINS_ONLY: &str = "Only admins can read the audit log";

/// One authentication event. Never carries a secret, code or token.
#[derive(SimpleObject, Clone, Debug)]
pub struct AuditEvent {
    pub id: ID,
    pub at: DateTime<Utc>,
    /// A stable name such as `sign_in_failed` or `google_linked`.
    pub kind: String,
    pub user_id: Option<ID>,
    /// The admin who acted, when it was not the account itself.
    pub actor_id: Option<ID>,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub detail: Option<String>,
}

impl From<audit_events::Model> for AuditEvent {
    fn from(event: audit_events::Model) -> Self {
        Self {
            id: ID(event.id.to_string()),
            at: event.at,
            kind: event.kind,
            user_id: event.user_id.map(|id| ID(id.to_string())),
            actor_id: event.actor_id.map(|id| ID(id.to_string())),
            ip: event.ip,
            user_agent: event.user_agent,
            detail: event.detail,
        }
    }
}

/// A page of the log; pass `nextCursor` as `after` for the next one (null at the end).
#[derive(SimpleObject, Clone, Debug)]
pub struct AuditEventConnection {
    pub nodes: Vec<AuditEvent>,
    pub next_cursor: Option<String>,
}

#[derive(Default)]
pub struct AuditQuery;

#[Object]
impl AuditQuery {
    /// Admins only. `first`: 1-50, default 20; `userId` keeps one account's events.
    #[graphql(complexity = "super::limits::page_cost(first, child_complexity)")]
    async fn audit_events(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
        user_id: Option<ID>,
    ) -> async_graphql::Result<AuditEventConnection> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        if !viewer.is_admin() {
            return Err(Error::AdminsOnly(ADMINS_ONLY)).gql();
        }
        let mut errors = FieldErrors::new();
        let limit = match first {
            None => 20,
            Some(n @ 1..=50) => n,
            Some(_) => {
                errors.add("first", "first must be a whole number from 1 to 50");
                0
            }
        };
        let after = after.as_deref().and_then(|raw| {
            let position = decode(raw);
            if position.is_none() {
                errors.add("after", "Invalid cursor");
            }
            position
        });
        let user_id = user_id.and_then(|id| {
            let parsed = Uuid::parse_str(&id).ok();
            if parsed.is_none() {
                errors.add("userId", "Invalid user id");
            }
            parsed
        });
        errors.into_result().gql()?;
        let limit = u64::try_from(limit).unwrap_or(20);
        let mut events = audit::page(&state.db, user_id, after, limit + 1).await.gql()?;
        let more = events.len() > usize::try_from(limit).unwrap_or(usize::MAX);
        events.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        let next_cursor = more
            .then(|| events.last().map(|e| encode(Position::of(e))))
            .flatten();
        Ok(AuditEventConnection {
            nodes: events.into_iter().map(AuditEvent::from).collect(),
            next_cursor,
        })
    }
}

/// The feed's opaque cursor format, `(time, id)`, serves the log's keyset paging too.
fn encode(position: Position) -> String {
    Cursor {
        created_at: position.at,
        id: position.id,
    }
    .encode()
}

fn decode(raw: &str) -> Option<Position> {
    Cursor::decode(raw).map(|cursor| Position {
        at: cursor.created_at,
        id: cursor.id,
    })
}
