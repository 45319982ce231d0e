//! People, as an admin finds and handles them: a search by a prefix of the name (in name order)
//! or, once the query has an @, of the email (in address order), case-insensitive, with role
//! and status filters, a page at a time (one range of an index however many accounts there
//! are); a person's whole picture; and the actions:
//! suspend (with a reason; every session ends at once), restore, sign out everywhere, change
//! the role (never one's own) and mail a new verification code.

use std::collections::HashMap;

use chrono::Utc;
use entity::{audit_events, identities, organization_members, passkeys, users};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use uuid::Uuid;

use super::{Order, console_page, ordered_page, require_admin, search_query, starts_with};
use crate::{
    accounts::{
        email_code::{self, SendCodeForm},
        fields::Role,
        sessions::{self, Device, Viewer},
    },
    audit::{self, Event, Filter, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    organizations::{self, View, invitations},
};

pub const NOT_FOUND: &str = "User not found";
pub const SUSPENDED: &str = "Account suspended";
pub const RESTORED: &str = "Account restored";
pub const SIGNED_OUT: &str = "Signed out everywhere";
pub const ROLE_UPDATED: &str = "Role updated";
pub const VERIFICATION_SENT: &str = "Verification email sent";
pub const ALREADY_VERIFIED: &str = "Email is already verified";
pub const SUSPENDED_NOT_MAILED: &str = "The account is suspended: it is mailed nothing until it is restored";
pub const NOT_YOURSELF_SUSPEND: &str = "You cannot suspend your own account";
pub const NOT_YOURSELF_ROLE: &str = "You cannot change your own role";
pub const REASON_REQUIRED: &str = "Reason is required";
pub const MAX_REASON: usize = 500;

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SearchForm {
    /// A prefix of the name or the email.
    pub query: Option<String>,
    pub role: Option<String>,
    pub status: Option<String>,
    pub limit: Option<i32>,
    pub cursor: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SuspendForm {
    pub reason: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct RoleForm {
    pub role: Option<String>,
}

/// A person in the console's table: the account and how many organizations they belong to.
#[derive(Debug, Clone)]
pub struct Listed {
    pub user: users::Model,
    pub organizations: u64,
}

pub struct UserPage {
    pub items: Vec<Listed>,
    pub next_cursor: Option<String>,
}

/// Everything the console shows about one person.
pub struct Picture {
    pub listed: Listed,
    pub sessions: Vec<Device>,
    pub organizations: Vec<View>,
    pub identities: Vec<identities::Model>,
    pub passkeys: Vec<passkeys::Model>,
    pub audit: Vec<audit_events::Model>,
}

fn parse_role(value: Option<&str>) -> Result<users::Role, String> {
    match value.map(str::trim).map(str::to_lowercase).as_deref() {
        None | Some("") => Err("Role is required".to_owned()),
        Some("admin") => Ok(users::Role::Admin),
        other => Role::parse_selectable(other)
            .map(users::Role::from)
            .map_err(|_| "Role must be career, campus, hire or admin".to_owned()),
    }
}

fn parse_status(value: &str) -> Result<users::AccountStatus, String> {
    match value.trim().to_lowercase().as_str() {
        "pending" => Ok(users::AccountStatus::Pending),
        "active" => Ok(users::AccountStatus::Active),
        "suspended" => Ok(users::AccountStatus::Suspended),
        _ => Err("Status must be pending, active or suspended".to_owned()),
    }
}

async fn organization_counts(db: &impl ConnectionTrait, ids: &[Uuid]) -> Result<HashMap<Uuid, u64>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(Uuid, i64)> = organization_members::Entity::find()
        .select_only()
        .column(organization_members::Column::UserId)
        .column_as(organization_members::Column::OrganizationId.count(), "count")
        .filter(organization_members::Column::UserId.is_in(ids.to_vec()))
        .group_by(organization_members::Column::UserId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, count)| (id, u64::try_from(count).unwrap_or(0)))
        .collect())
}

/// A page of people: `limit` (1-100, default 50) after `cursor`, whose name starts with `query`
/// (in name order) or, when it has an @, whose email does (in address order),
/// case-insensitive, of a role and status when given.
///
/// # Errors
/// 403 for anyone but an admin; field errors for the filters, limit or cursor.
#[tracing::instrument(skip_all)]
pub async fn search(ctx: &Context, viewer: &Viewer, form: SearchForm) -> Result<UserPage> {
    require_admin(viewer)?;
    let mut errors = FieldErrors::new();
    let query = errors
        .check("query", search_query(form.query.as_deref()))
        .flatten();
    let role = form
        .role
        .as_deref()
        .filter(|r| !r.trim().is_empty())
        .and_then(|r| errors.check("role", parse_role(Some(r))));
    let status = form
        .status
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .and_then(|s| errors.check("status", parse_status(s)));
    let page = console_page(errors, form.limit, form.cursor.as_deref())?;
    let backend = ctx.db.get_database_backend();
    let mut condition = Condition::all();
    // A query with an @ is the start of an address, in address order; any other the start of
    // a name, in name order. Either way one range of one index, however many accounts.
    let order = if query.as_ref().is_some_and(|q| q.contains('@')) {
        Order::Email
    } else {
        Order::Name
    };
    if let Some(q) = &query {
        condition = condition.add(match order {
            Order::Email => starts_with(backend, "email", false, q),
            Order::Name => starts_with(backend, "name", true, q),
        });
    }
    if let Some(role) = role {
        condition = condition.add(users::Column::Role.eq(role));
    }
    if let Some(status) = status {
        condition = condition.add(users::Column::Status.eq(status));
    }
    let (rows, next_cursor) = ordered_page::<users::Entity>(
        &ctx.db,
        ("users", users::Column::Id),
        order,
        condition,
        &page,
        |u| u.id,
    )
    .await?;
    let ids: Vec<Uuid> = rows.iter().map(|u| u.id).collect();
    let mut counts = organization_counts(&ctx.db, &ids).await?;
    Ok(UserPage {
        items: rows
            .into_iter()
            .map(|user| Listed {
                organizations: counts.remove(&user.id).unwrap_or(0),
                user,
            })
            .collect(),
        next_cursor,
    })
}

/// `user` with the count the console's table shows.
async fn listed(ctx: &Context, user: users::Model) -> Result<Listed> {
    let organizations = organization_counts(&ctx.db, &[user.id])
        .await?
        .remove(&user.id)
        .unwrap_or(0);
    Ok(Listed { user, organizations })
}

/// Inside an admin's change to `target`'s account: both rows locked, in one order, and the
/// admin's read again. Two admins demoting, suspending or deleting each other at once would
/// otherwise each pass the check made before, and leave nobody to run the console; now the
/// second waits for the first and is refused, as one who is no longer an admin.
///
/// # Errors
/// 403 'Only admins can use the admin console' when the viewer has stopped being an active
/// admin.
pub(crate) async fn still_admin(txn: &impl ConnectionTrait, viewer: &Viewer, target: Uuid) -> Result<()> {
    let mut ids = [viewer.user.id, target];
    ids.sort_unstable();
    let mut actor = None;
    for id in ids {
        let row = crate::accounts::locked(txn, id).await?;
        if id == viewer.user.id {
            actor = row;
        }
    }
    match actor {
        Some(actor)
            if actor.role == users::Role::Admin && actor.status != users::AccountStatus::Suspended =>
        {
            Ok(())
        }
        _ => Err(Error::Forbidden(super::ADMINS_ONLY.to_owned())),
    }
}

async fn target(ctx: &Context, id: &str) -> Result<users::Model> {
    let not_found = || Error::NotFound(NOT_FOUND.to_owned());
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    users::Entity::find_by_id(id)
        .one(&ctx.db)
        .await?
        .ok_or_else(not_found)
}

/// One person: the account, its sessions, organizations, connected providers, passkeys and
/// the 50 newest events of its audit trail.
///
/// # Errors
/// 403 for anyone but an admin; 404 'User not found'.
pub async fn picture(ctx: &Context, viewer: &Viewer, id: &str) -> Result<Picture> {
    require_admin(viewer)?;
    let user = target(ctx, id).await?;
    let organizations = organizations::list_of(&ctx.db, user.id).await?;
    let filter = Filter {
        user_id: Some(user.id),
        ..Filter::default()
    };
    Ok(Picture {
        sessions: sessions::devices_of(ctx, user.id, Some(viewer.session_id)).await?,
        identities: identities::Entity::find()
            .filter(identities::Column::UserId.eq(user.id))
            .order_by_asc(identities::Column::LinkedAt)
            .all(&ctx.db)
            .await?,
        passkeys: passkeys::Entity::find()
            .filter(passkeys::Column::UserId.eq(user.id))
            .order_by_desc(passkeys::Column::CreatedAt)
            .all(&ctx.db)
            .await?,
        audit: audit::page(&ctx.db, &filter, None, 50).await?,
        listed: Listed {
            organizations: u64::try_from(organizations.len()).unwrap_or(0),
            user,
        },
        organizations,
    })
}

/// Suspends an account: it signs in nowhere, and every session ends at once (on every
/// instance: each session check reads the account).
///
/// # Errors
/// 403 for anyone but an admin, and for one's own account; 403 `REAUTHENTICATION_REQUIRED`
/// when the admin's sign-in is not recent; 404; a field error for a missing or too long reason.
#[tracing::instrument(skip_all)]
pub async fn suspend(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    form: SuspendForm,
    client: &ClientInfo,
) -> Result<()> {
    require_admin(viewer)?;
    // Whom first, then why: suspending oneself is refused whatever the reason says.
    let user = target(ctx, id).await?;
    if user.id == viewer.user.id {
        return Err(Error::Forbidden(NOT_YOURSELF_SUSPEND.to_owned()));
    }
    // Locking someone out, like deleting them, is for an admin who signed in recently.
    viewer.require_recent_sign_in()?;
    let reason = form.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    let Some(reason) = reason else {
        return Err(Error::field("reason", REASON_REQUIRED));
    };
    if reason.chars().count() > MAX_REASON {
        return Err(Error::field(
            "reason",
            format!("Reason must be at most {MAX_REASON} characters"),
        ));
    }
    if crate::accounts::fields::has_stray_control(reason) {
        return Err(Error::field("reason", "Reason cannot contain control characters"));
    }
    let txn = crate::db::begin_write(&ctx.db).await?;
    still_admin(&txn, viewer, user.id).await?;
    let user_id = user.id;
    // Only the status, and only of an account not suspended already: an edit the person made
    // meanwhile stays, and suspending twice records (and ends) nothing the first did not.
    let suspended = users::Entity::update_many()
        .col_expr(
            users::Column::Status,
            sea_orm::sea_query::Expr::value(users::AccountStatus::Suspended),
        )
        .col_expr(
            users::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(Utc::now()),
        )
        .filter(users::Column::Id.eq(user_id))
        .filter(users::Column::Status.ne(users::AccountStatus::Suspended))
        .exec(&txn)
        .await?;
    if suspended.rows_affected == 0 {
        txn.commit().await?;
        return Ok(());
    }
    sessions::end_all(&txn, user_id, None).await?;
    // Nor may a link or code mailed before it change the password or sign in once the
    // suspension is lifted: whoever was locked out must ask again.
    crate::accounts::forget_mailed_secrets(&txn, user_id, None).await?;
    // Nobody joins an organization on the word of a suspended account.
    let revoked = invitations::revoke_beyond(&txn, user_id, None, None).await?;
    Event::new(Kind::AccountSuspended, Some(user_id), client)
        .by(viewer.user.id)
        .detail(format!("{reason}{}", invitations::revoked_note(revoked)))
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.backchannel_ready.notify_one();
    Ok(())
}

/// Lifts a suspension: the account is active again (pending when its email was never
/// verified).
///
/// # Errors
/// 403 for anyone but an admin; 404.
#[tracing::instrument(skip_all)]
pub async fn restore(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<()> {
    require_admin(viewer)?;
    let user = target(ctx, id).await?;
    let status = if user.email_verified {
        users::AccountStatus::Active
    } else {
        users::AccountStatus::Pending
    };
    // Only the status, and only of a suspended account: an edit the person made meanwhile
    // stays, and restoring an account that is not suspended changes (and records) nothing.
    let txn = crate::db::begin_write(&ctx.db).await?;
    let restored = users::Entity::update_many()
        .col_expr(users::Column::Status, sea_orm::sea_query::Expr::value(status))
        .col_expr(
            users::Column::UpdatedAt,
            sea_orm::sea_query::Expr::value(Utc::now()),
        )
        .filter(users::Column::Id.eq(user.id))
        .filter(users::Column::Status.eq(users::AccountStatus::Suspended))
        .exec(&txn)
        .await?;
    if restored.rows_affected > 0 {
        Event::new(Kind::AccountRestored, Some(user.id), client)
            .by(viewer.user.id)
            .record(&txn)
            .await?;
    }
    txn.commit().await?;
    Ok(())
}

/// Ends every session of an account.
///
/// # Errors
/// 403 for anyone but an admin; 404.
#[tracing::instrument(skip_all)]
pub async fn sign_out(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<()> {
    require_admin(viewer)?;
    let user = target(ctx, id).await?;
    let ended = sessions::end_all(&ctx.db, user.id, None).await?;
    ctx.backchannel_ready.notify_one();
    Event::new(Kind::SessionsRevoked, Some(user.id), client)
        .by(viewer.user.id)
        .detail(format!("{ended} ended by an admin"))
        .record(&ctx.db)
        .await
}

/// Ends one session of an account.
///
/// # Errors
/// 403 for anyone but an admin; 404 for the user or the session.
pub async fn end_session(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    session_id: &str,
    client: &ClientInfo,
) -> Result<()> {
    require_admin(viewer)?;
    let user = target(ctx, id).await?;
    sessions::end_one(ctx, user.id, session_id).await?;
    Event::new(Kind::SessionRevoked, Some(user.id), client)
        .by(viewer.user.id)
        .record(&ctx.db)
        .await
}

/// Changes an account's role. Its sessions and the links and codes mailed to it end: powers
/// granted or taken apply from the next sign-in, never to a session opened under the old ones.
///
/// # Errors
/// 403 for anyone but an admin, and for one's own role; 403 `REAUTHENTICATION_REQUIRED` when
/// the admin's sign-in is not recent; 404; a field error for the role.
#[tracing::instrument(skip_all)]
pub async fn set_role(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    form: RoleForm,
    client: &ClientInfo,
) -> Result<Listed> {
    require_admin(viewer)?;
    let role = parse_role(form.role.as_deref()).map_err(|m| Error::field("role", m))?;
    let user = target(ctx, id).await?;
    if user.id == viewer.user.id {
        return Err(Error::Forbidden(NOT_YOURSELF_ROLE.to_owned()));
    }
    // A role is what the console and every platform trust: making someone an admin (or no
    // longer one) is for an admin who signed in recently.
    viewer.require_recent_sign_in()?;
    if user.role == role {
        return listed(ctx, user).await;
    }
    let from = user.role.as_str();
    let txn = crate::db::begin_write(&ctx.db).await?;
    still_admin(&txn, viewer, user.id).await?;
    let mut row: users::ActiveModel = user.into();
    row.role = Set(role);
    row.updated_at = Set(Utc::now());
    let user = row.update(&txn).await?;
    sessions::end_all(&txn, user.id, None).await?;
    // Nor does a link mailed before it: whoever can read that mail must not sign in with the
    // new powers.
    crate::accounts::forget_mailed_secrets(&txn, user.id, None).await?;
    // A former site admin's invitations stand only where their memberships back them.
    let revoked = if from == users::Role::Admin.as_str() {
        invitations::revoke_unbacked(&txn, user.id).await?
    } else {
        0
    };
    Event::new(Kind::RoleChanged, Some(user.id), client)
        .by(viewer.user.id)
        .detail(format!(
            "{from} to {}{}",
            role.as_str(),
            invitations::revoked_note(revoked)
        ))
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.backchannel_ready.notify_one();
    listed(ctx, user).await
}

/// Mails an unverified account a new verification code (the email code's own limits apply).
///
/// # Errors
/// 403 for anyone but an admin; 404; 409 'Email is already verified'; 429 within the code's
/// cooldown.
pub async fn resend_verification(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    client: &ClientInfo,
) -> Result<()> {
    require_admin(viewer)?;
    let user = target(ctx, id).await?;
    if user.email_verified {
        return Err(Error::Conflict(ALREADY_VERIFIED.to_owned()));
    }
    // A suspended account is mailed nothing: the admin is told so rather than "sent".
    if user.status == entity::users::AccountStatus::Suspended {
        return Err(Error::Conflict(SUSPENDED_NOT_MAILED.to_owned()));
    }
    email_code::send_by(
        ctx,
        SendCodeForm {
            email: Some(user.email),
        },
        client,
        Some(viewer.user.id),
    )
    .await
}
