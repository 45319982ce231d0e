//! The audit log for admins: newest first, paged, optionally for one account.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use entity::audit_events;

use serde::Serialize;

use super::{context, errors::IntoGql, types::rfc3339};
use crate::audit;

/// One authentication event. Never carries a secret, code or token.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct AuditEvent {
    pub id: ID,
    #[serde(serialize_with = "rfc3339")]
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
        let page = audit::read(
            &state.db,
            &viewer,
            first,
            after.as_deref(),
            user_id.as_ref().map(|id| id.as_str()),
        )
        .await
        .gql()?;
        Ok(AuditEventConnection {
            nodes: page.events.into_iter().map(AuditEvent::from).collect(),
            next_cursor: page.next_cursor,
        })
    }
}
