//! The audit log: one row per authentication event, with time, account, address and user
//! agent. Never a password, code, link or token. Admins read it through GraphQL.

use chrono::{DateTime, Utc};
use entity::audit_events;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use uuid::Uuid;

use crate::{
    accounts::sessions::Viewer,
    client::ClientInfo,
    error::{FieldErrors, Result},
    news::Cursor,
};

pub const ADMINS_ONLY: &str = "Only admins can read the audit log";

/// What happened. The names are stable: alerts and reports match on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Registered,
    SignIn,
    SignInFailed,
    SignInThrottled,
    CodeSent,
    CodeFailed,
    EmailVerified,
    ResetRequested,
    SignInLinkRequested,
    PasswordReset,
    PasswordChanged,
    GoogleLinked,
    GoogleRegistered,
    Logout,
    SessionsRevoked,
    SessionRevoked,
    AccountDeleted,
    AdminCreated,
    TwoFactorEnabled,
    TwoFactorDisabled,
    TwoFactorChallenged,
    RecoveryCodeUsed,
    /// Wrong second-factor codes closed the second step of an account for an hour.
    TwoFactorLocked,
    Reauthenticated,
    OAuthClientChanged,
    ConsentGiven,
    ConsentRevoked,
    /// A rotated refresh token came back: its whole grant was revoked.
    RefreshTokenReused,
    /// An authorization code was exchanged twice: its whole grant was revoked.
    AuthorizationCodeReplayed,
    NewsCreated,
    NewsUpdated,
    NewsDeleted,
    OrganizationCreated,
    OrganizationUpdated,
    OrganizationDeleted,
    OrganizationMemberChanged,
    OrganizationMemberRemoved,
    OrganizationLeft,
    OrganizationInvited,
    OrganizationInvitationRevoked,
    OrganizationInvitationDeclined,
    OrganizationJoined,
    PasskeyAdded,
    PasskeyRenamed,
    PasskeyRemoved,
    /// A passkey answered with a sign count at or below the one seen: possibly a cloned key.
    PasskeyCounterRegressed,
    /// A LinkedIn, Microsoft or GitHub identity joined or was connected to an account.
    IdentityConnected,
    IdentityDisconnected,
    AccountSuspended,
    AccountRestored,
    RoleChanged,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Registered => "registered",
            Self::SignIn => "sign_in",
            Self::SignInFailed => "sign_in_failed",
            Self::SignInThrottled => "sign_in_throttled",
            Self::CodeSent => "code_sent",
            Self::CodeFailed => "code_failed",
            Self::EmailVerified => "email_verified",
            Self::ResetRequested => "reset_requested",
            Self::SignInLinkRequested => "sign_in_link_requested",
            Self::PasswordReset => "password_reset",
            Self::PasswordChanged => "password_changed",
            Self::GoogleLinked => "google_linked",
            Self::GoogleRegistered => "google_registered",
            Self::Logout => "logout",
            Self::SessionsRevoked => "sessions_revoked",
            Self::SessionRevoked => "session_revoked",
            Self::AccountDeleted => "account_deleted",
            Self::AdminCreated => "admin_created",
            Self::TwoFactorEnabled => "two_factor_enabled",
            Self::TwoFactorDisabled => "two_factor_disabled",
            Self::TwoFactorChallenged => "two_factor_challenged",
            Self::RecoveryCodeUsed => "recovery_code_used",
            Self::TwoFactorLocked => "two_factor_locked",
            Self::Reauthenticated => "reauthenticated",
            Self::OAuthClientChanged => "oauth_client_changed",
            Self::ConsentGiven => "consent_given",
            Self::ConsentRevoked => "consent_revoked",
            Self::RefreshTokenReused => "refresh_token_reused",
            Self::AuthorizationCodeReplayed => "authorization_code_replayed",
            Self::NewsCreated => "news_created",
            Self::NewsUpdated => "news_updated",
            Self::NewsDeleted => "news_deleted",
            Self::OrganizationCreated => "organization_created",
            Self::OrganizationUpdated => "organization_updated",
            Self::OrganizationDeleted => "organization_deleted",
            Self::OrganizationMemberChanged => "organization_member_changed",
            Self::OrganizationMemberRemoved => "organization_member_removed",
            Self::OrganizationLeft => "organization_left",
            Self::OrganizationInvited => "organization_invited",
            Self::OrganizationInvitationRevoked => "organization_invitation_revoked",
            Self::OrganizationInvitationDeclined => "organization_invitation_declined",
            Self::OrganizationJoined => "organization_joined",
            Self::PasskeyAdded => "passkey_added",
            Self::PasskeyRenamed => "passkey_renamed",
            Self::PasskeyRemoved => "passkey_removed",
            Self::PasskeyCounterRegressed => "passkey_counter_regressed",
            Self::IdentityConnected => "identity_connected",
            Self::IdentityDisconnected => "identity_disconnected",
            Self::AccountSuspended => "account_suspended",
            Self::AccountRestored => "account_restored",
            Self::RoleChanged => "role_changed",
        }
    }
}

/// One event about to be written.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    pub kind: Kind,
    /// The account the event is about: whose sign-in, whose account an admin changed, who
    /// acted in an organization. `None` for shared content an admin changes (news,
    /// applications).
    pub user_id: Option<Uuid>,
    /// Who acted, when it is not simply `user_id` on their own account: an admin on someone
    /// else's account or on shared content; in an organization, always the member who acted.
    pub actor_id: Option<Uuid>,
    pub client: &'a ClientInfo,
    pub detail: Option<String>,
}

impl<'a> Event<'a> {
    pub fn new(kind: Kind, user_id: Option<Uuid>, client: &'a ClientInfo) -> Self {
        Self {
            kind,
            user_id,
            actor_id: None,
            client,
            detail: None,
        }
    }

    /// An admin acting on someone else's account or on shared content.
    #[must_use]
    pub fn by(mut self, actor_id: Uuid) -> Self {
        self.actor_id = Some(actor_id);
        self
    }

    #[must_use]
    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Writes the event within `db` (the caller's transaction when it has one, so the record
    /// and the change commit together).
    ///
    /// # Errors
    /// On a database failure.
    pub async fn record(self, db: &impl ConnectionTrait) -> Result<()> {
        tracing::info!(
            event = self.kind.as_str(),
            user_id = ?self.user_id,
            actor_id = ?self.actor_id,
            ip = ?self.client.ip,
            "audit"
        );
        audit_events::ActiveModel {
            id: Set(Uuid::new_v4()),
            at: Set(now_micros()),
            kind: Set(self.kind.as_str().to_owned()),
            user_id: Set(self.user_id),
            actor_id: Set(self.actor_id),
            ip: Set(self.client.ip_text()),
            user_agent: Set(self.client.user_agent.clone()),
            detail: Set(self.detail.map(|d| d.chars().take(255).collect())),
        }
        .insert(db)
        .await?;
        Ok(())
    }
}

/// Timestamps cut to microseconds, what PostgreSQL keeps, so cursors compare alike on both.
fn now_micros() -> DateTime<Utc> {
    let now = Utc::now();
    DateTime::from_timestamp_micros(now.timestamp_micros()).unwrap_or(now)
}

/// Where a page of the log starts: after the event `(at, id)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub at: DateTime<Utc>,
    pub id: Uuid,
}

/// Which events a read wants: all of them, or of one account, of one kind, within a time range
/// (`from` inclusive, `to` exclusive).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub user_id: Option<Uuid>,
    pub kind: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
}

/// The newest events first that pass `filter`, `limit` at a time after `after`.
///
/// # Errors
/// On a database failure.
pub async fn page(
    db: &impl ConnectionTrait,
    filter: &Filter,
    after: Option<Position>,
    limit: u64,
) -> Result<Vec<audit_events::Model>> {
    let mut query = audit_events::Entity::find();
    if let Some(user_id) = filter.user_id {
        query = query.filter(audit_events::Column::UserId.eq(user_id));
    }
    if let Some(kind) = &filter.kind {
        query = query.filter(audit_events::Column::Kind.eq(kind.as_str()));
    }
    if let Some(from) = filter.from {
        query = query.filter(audit_events::Column::At.gte(from));
    }
    if let Some(to) = filter.to {
        query = query.filter(audit_events::Column::At.lt(to));
    }
    if let Some(after) = after {
        query = query.filter(
            Condition::any().add(audit_events::Column::At.lt(after.at)).add(
                Condition::all()
                    .add(audit_events::Column::At.eq(after.at))
                    .add(audit_events::Column::Id.lt(after.id)),
            ),
        );
    }
    Ok(query
        .order_by_desc(audit_events::Column::At)
        .order_by_desc(audit_events::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// One page of the log as an admin reads it.
pub struct LogPage {
    pub events: Vec<audit_events::Model>,
    /// The cursor after the last event, when more follow.
    pub next_cursor: Option<String>,
}

/// The log for an admin: `first` (1-50, default 20) events after the cursor `after`, all of
/// them or `user_id`'s.
///
/// # Errors
/// 403 for anyone but an admin; field errors for `first`, `after` or `userId`.
#[tracing::instrument(skip_all)]
pub async fn read(
    db: &impl ConnectionTrait,
    viewer: &Viewer,
    first: Option<i32>,
    after: Option<&str>,
    user_id: Option<&str>,
) -> Result<LogPage> {
    viewer.require_admin(ADMINS_ONLY)?;
    let mut errors = FieldErrors::new();
    let limit: u64 = match first {
        None => 20,
        Some(n @ 1..=50) => n.unsigned_abs().into(),
        Some(_) => {
            errors.add("first", "first must be a whole number from 1 to 50");
            0
        }
    };
    let after = after.and_then(|raw| {
        let position = cursor_position(raw);
        if position.is_none() {
            errors.add("after", "Invalid cursor");
        }
        position
    });
    let user_id = user_id.and_then(|id| {
        let parsed = Uuid::parse_str(id).ok();
        if parsed.is_none() {
            errors.add("userId", "Invalid user id");
        }
        parsed
    });
    errors.into_result()?;
    let filter = Filter {
        user_id,
        ..Filter::default()
    };
    read_page(db, &filter, after, limit).await
}

/// `limit` events after `after` and the cursor that follows them, when more do.
///
/// # Errors
/// On a database failure.
pub async fn read_page(
    db: &impl ConnectionTrait,
    filter: &Filter,
    after: Option<Position>,
    limit: u64,
) -> Result<LogPage> {
    let mut events = page(db, filter, after, limit + 1).await?;
    let keep = usize::try_from(limit).unwrap_or(usize::MAX);
    let more = events.len() > keep;
    events.truncate(keep);
    let next_cursor = more
        .then(|| events.last().map(|event| position_cursor(event.at, event.id)))
        .flatten();
    Ok(LogPage { events, next_cursor })
}

/// The cursor of the event at `(at, id)`.
pub fn position_cursor(at: DateTime<Utc>, id: Uuid) -> String {
    Cursor { created_at: at, id }.encode()
}

/// The position a cursor names, if this server made it.
pub fn cursor_position(raw: &str) -> Option<Position> {
    Cursor::decode(raw).map(|cursor| Position {
        at: cursor.created_at,
        id: cursor.id,
    })
}
