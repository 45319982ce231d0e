//! The admin console in GraphQL: the same domain calls as `/api/admin/*`.

use async_graphql::{Context, ID, MaybeUndefined, Object, SimpleObject};
use chrono::{DateTime, Utc};

use super::{
    audit::AuditEvent,
    context,
    errors::IntoGql,
    organizations::{Organization, OrganizationPayload},
    passkeys::Passkey,
    providers::Identity,
    types::{MessagePayload, Session, User},
};
use crate::admin::{
    audit_log::{self, LogForm},
    orgs::{self, OrgSearchForm},
    users::{self, Listed, RoleForm, SearchForm, SuspendForm},
};

/// A person as the console lists them: the account's fields, as REST's `data.items` has them,
/// and two more.
#[derive(SimpleObject)]
pub struct AdminUser {
    #[graphql(flatten)]
    pub user: User,
    pub last_sign_in_at: Option<DateTime<Utc>>,
    /// How many organizations they belong to.
    pub organizations: u64,
}

impl From<Listed> for AdminUser {
    fn from(listed: Listed) -> Self {
        Self {
            last_sign_in_at: listed.user.last_sign_in_at,
            user: listed.user.into(),
            organizations: listed.organizations,
        }
    }
}

#[derive(SimpleObject)]
pub struct AdminUserPayload {
    pub message: String,
    pub user: AdminUser,
}

#[derive(SimpleObject)]
pub struct AdminUserPage {
    pub items: Vec<AdminUser>,
    pub next_cursor: Option<String>,
}

/// Everything the console shows about one person.
#[derive(SimpleObject)]
pub struct AdminUserPicture {
    pub user: AdminUser,
    pub sessions: Vec<Session>,
    /// Their organizations, `myRole` being their role in each.
    pub organizations: Vec<Organization>,
    pub identities: Vec<Identity>,
    pub passkeys: Vec<Passkey>,
    /// The 50 newest events of their audit trail.
    pub audit: Vec<AuditEvent>,
}

#[derive(SimpleObject)]
pub struct AuditEventPage {
    pub items: Vec<AuditEvent>,
    pub next_cursor: Option<String>,
}

#[derive(SimpleObject)]
pub struct OrganizationPage {
    pub items: Vec<Organization>,
    pub next_cursor: Option<String>,
}

#[derive(Default)]
pub struct AdminQuery;

#[Object]
impl AdminQuery {
    /// People whose name or email starts with `query` (case-insensitive), in name order.
    #[graphql(complexity = "super::limits::long_page_cost(limit, child_complexity)")]
    async fn admin_users(
        &self,
        ctx: &Context<'_>,
        query: Option<String>,
        role: Option<String>,
        status: Option<String>,
        limit: Option<i32>,
        cursor: Option<String>,
    ) -> async_graphql::Result<AdminUserPage> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let form = SearchForm {
            query,
            role,
            status,
            limit,
            cursor,
        };
        let page = users::search(state, &viewer, form).await.gql()?;
        Ok(AdminUserPage {
            items: page.items.into_iter().map(AdminUser::from).collect(),
            next_cursor: page.next_cursor,
        })
    }

    /// One person's account, sessions, organizations, providers, passkeys and audit trail.
    async fn admin_user(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<AdminUserPicture> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let picture = users::picture(state, &viewer, &id).await.gql()?;
        Ok(AdminUserPicture {
            user: picture.listed.into(),
            sessions: picture.sessions.into_iter().map(Session::from).collect(),
            organizations: picture
                .organizations
                .into_iter()
                .map(Organization::from)
                .collect(),
            identities: picture
                .identities
                .into_iter()
                .filter_map(Identity::from_row)
                .collect(),
            passkeys: picture.passkeys.into_iter().map(Passkey::from).collect(),
            audit: picture.audit.into_iter().map(AuditEvent::from).collect(),
        })
    }

    /// The audit log, newest first, by person, kind and time range (RFC 3339).
    #[allow(clippy::too_many_arguments)]
    #[graphql(complexity = "super::limits::long_page_cost(limit, child_complexity)")]
    async fn admin_audit_events(
        &self,
        ctx: &Context<'_>,
        user_id: Option<String>,
        kind: Option<String>,
        from: Option<String>,
        to: Option<String>,
        limit: Option<i32>,
        cursor: Option<String>,
    ) -> async_graphql::Result<AuditEventPage> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let form = LogForm {
            user_id,
            kind,
            from,
            to,
            limit,
            cursor,
        };
        let page = audit_log::list(state, &viewer, form).await.gql()?;
        Ok(AuditEventPage {
            items: page.events.into_iter().map(AuditEvent::from).collect(),
            next_cursor: page.next_cursor,
        })
    }

    /// Every organization, by name, with a name prefix search.
    #[graphql(complexity = "super::limits::long_page_cost(limit, child_complexity)")]
    async fn admin_organizations(
        &self,
        ctx: &Context<'_>,
        query: Option<String>,
        limit: Option<i32>,
        cursor: Option<String>,
    ) -> async_graphql::Result<OrganizationPage> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let page = orgs::search(state, &viewer, OrgSearchForm { query, limit, cursor })
            .await
            .gql()?;
        Ok(OrganizationPage {
            items: page.items.into_iter().map(Organization::from).collect(),
            next_cursor: page.next_cursor,
        })
    }
}

#[derive(Default)]
pub struct AdminMutation;

#[Object]
impl AdminMutation {
    /// Suspends an account; every session ends at once. Never one's own.
    async fn suspend_user(
        &self,
        ctx: &Context<'_>,
        id: ID,
        reason: Option<String>,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        users::suspend(state, &viewer, &id, SuspendForm { reason }, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(users::SUSPENDED))
    }

    async fn restore_user(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        users::restore(state, &viewer, &id, &meta.client).await.gql()?;
        Ok(MessagePayload::new(users::RESTORED))
    }

    /// Ends every session of an account.
    async fn sign_out_user(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        users::sign_out(state, &viewer, &id, &meta.client).await.gql()?;
        Ok(MessagePayload::new(users::SIGNED_OUT))
    }

    /// Ends one session of an account.
    async fn end_user_session(
        &self,
        ctx: &Context<'_>,
        id: ID,
        session_id: ID,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        users::end_session(state, &viewer, &id, &session_id, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(crate::accounts::sessions::REVOKED))
    }

    /// Changes an account's role (never one's own); its sessions end.
    async fn set_user_role(
        &self,
        ctx: &Context<'_>,
        id: ID,
        role: Option<String>,
    ) -> async_graphql::Result<AdminUserPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let listed = users::set_role(state, &viewer, &id, RoleForm { role }, &meta.client)
            .await
            .gql()?;
        Ok(AdminUserPayload {
            message: users::ROLE_UPDATED.to_owned(),
            user: listed.into(),
        })
    }

    /// Mails an unverified account a new verification code.
    async fn resend_verification(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        users::resend_verification(state, &viewer, &id, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(users::VERIFICATION_SENT))
    }

    /// Sets an organization's seat limit (null: unlimited; it may not be left out).
    async fn set_seat_limit(
        &self,
        ctx: &Context<'_>,
        id: ID,
        seat_limit: MaybeUndefined<i32>,
    ) -> async_graphql::Result<OrganizationPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let view = orgs::set_seat_limit(state, &viewer, &id, seat_limit.into(), &meta.client)
            .await
            .gql()?;
        Ok(OrganizationPayload {
            message: crate::organizations::UPDATED.to_owned(),
            organization: view.into(),
        })
    }
}
