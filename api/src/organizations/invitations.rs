//! Invitations: up to 500 addresses a call, one mail each with a single-use link valid seven
//! days; 1,000 a day per organization; a seat limit counting members and pending invitations.
//! Accepting needs the invited address, verified.

use std::collections::HashSet;

use chrono::{Duration, SubsecRound, Utc};
use entity::{
    organization_invitations::{self, InvitationStatus},
    organization_members::{self, OrgRole},
    organizations, users,
};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, Set, sea_query::Expr,
};
use uuid::Uuid;

use super::{View, access, lock, locked_access, members, settle};
use crate::{
    accounts::{fields::Email, sessions::Viewer, tokens},
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    mail,
};

pub const SENT: &str = "Invitations sent";
pub const REVOKED: &str = "Invitation revoked";
pub const NOT_FOUND: &str = "Invitation not found";
pub const MAX_PER_CALL: usize = 500;
pub const MAX_PER_DAY: u64 = 1_000;
/// Invitations one address receives in a day, from every organization together: past them it
/// is skipped as `invited`, so revoking and inviting again, or inviting from many
/// organizations, cannot fill someone's inbox in the product's name.
pub const MAX_PER_ADDRESS_PER_DAY: i32 = 10;
/// The most pending invitations one list shows, newest first.
pub const MAX_LISTED: u64 = 1_000;
const TTL: Duration = Duration::days(7);

/// An invitation with the person who sent it (gone once their account is deleted).
pub type Sent = (organization_invitations::Model, Option<users::Model>);

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InviteForm {
    pub emails: Option<Vec<String>>,
    /// member (the default), admin, or owner (owners only).
    pub role: Option<String>,
}

/// Why an address got no invitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// Already a member.
    Member,
    /// A pending invitation exists, the address came twice, or it has had
    /// [`MAX_PER_ADDRESS_PER_DAY`] invitations today.
    Invited,
    /// Not an email address.
    Invalid,
}

impl SkipReason {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Member => "member",
            Self::Invited => "invited",
            Self::Invalid => "invalid",
        }
    }
}

pub struct Outcome {
    pub invitations: Vec<Sent>,
    pub skipped: Vec<(String, SkipReason)>,
}

/// An invitation as its link shows it, with where it leads.
pub struct Shown {
    pub invitation: Sent,
    pub organization: organizations::Model,
}

/// Invites each address once: members, pending invitations and malformed addresses are
/// skipped with a reason; the rest get a mail each, in the same transaction.
///
/// # Errors
/// 404 for outsiders; 403 for members (and for an owner invitation from an org admin); field
/// errors (no addresses, more than 500, a bad role); 409 past the seat limit (nothing sent);
/// 429 past 1,000 invitations a day.
#[tracing::instrument(skip_all)]
pub async fn invite(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    form: InviteForm,
    client: &ClientInfo,
) -> Result<Outcome> {
    let access = access(&ctx.db, viewer, id).await?;
    access.require_manager()?;
    let mut errors = FieldErrors::new();
    let emails = form.emails.unwrap_or_default();
    if emails.is_empty() {
        errors.add("emails", "Add at least one email address");
    } else if emails.len() > MAX_PER_CALL {
        errors.add(
            "emails",
            format!("At most {MAX_PER_CALL} email addresses per invitation"),
        );
    }
    let role = match form.role.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => Some(OrgRole::Member),
        Some(role) => errors.check("role", members::parse_role(Some(role))),
    };
    errors.into_result()?;
    let role = role.unwrap_or(OrgRole::Member);
    if role == OrgRole::Owner && !access.is_owner() {
        return Err(Error::Forbidden(super::OWNERS_ONLY.to_owned()));
    }

    let mut skipped = Vec::new();
    let mut wanted: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for raw in emails {
        match Email::parse(Some(&raw)) {
            Ok(email) if seen.insert(email.as_str().to_owned()) => wanted.push(email.as_str().to_owned()),
            Ok(email) => skipped.push((email.as_str().to_owned(), SkipReason::Invited)),
            Err(_) => skipped.push((raw.chars().take(255).collect(), SkipReason::Invalid)),
        }
    }

    let now = Utc::now().trunc_subsecs(6);
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        // Seats and the day's count are read and written under the organization's lock: two
        // calls at once cannot both pass the limit. The sender's role is read again under it.
        let access = locked_access(&txn, viewer, &access).await?;
        access.require_manager()?;
        if role == OrgRole::Owner && !access.is_owner() {
            return Err(Error::Forbidden(super::OWNERS_ONLY.to_owned()));
        }
        let org = &access.org;
        let members: HashSet<String> = organization_members::Entity::find()
            .inner_join(users::Entity)
            .select_only()
            .column(users::Column::Email)
            .filter(organization_members::Column::OrganizationId.eq(org.id))
            .filter(users::Column::Email.is_in(wanted.iter().cloned()))
            .into_tuple()
            .all(&txn)
            .await?
            .into_iter()
            .collect();
        let invited: HashSet<String> = pending(org.id, now)
            .select_only()
            .column(organization_invitations::Column::Email)
            .filter(organization_invitations::Column::Email.is_in(wanted.iter().cloned()))
            .into_tuple()
            .all(&txn)
            .await?
            .into_iter()
            .collect();
        let mut fresh = Vec::new();
        for email in wanted {
            if members.contains(&email) {
                skipped.push((email, SkipReason::Member));
            } else if invited.contains(&email) || !address_may_receive(ctx, &txn, &email).await? {
                skipped.push((email, SkipReason::Invited));
            } else {
                fresh.push(email);
            }
        }
        let count = u64::try_from(fresh.len()).unwrap_or(u64::MAX);
        // A call that would send nothing takes no seat, even in an organization already past
        // a lowered limit: its skips are the answer.
        if let Some(limit) = org.seat_limit.filter(|_| count > 0) {
            let member_count = organization_members::Entity::find()
                .filter(organization_members::Column::OrganizationId.eq(org.id))
                .count(&txn)
                .await?;
            let pending_count = pending(org.id, now).count(&txn).await?;
            if member_count + pending_count + count > u64::try_from(limit).unwrap_or(0) {
                return Err(Error::SeatLimitReached);
            }
        }
        let day = organization_invitations::Entity::find()
            .filter(organization_invitations::Column::OrganizationId.eq(org.id))
            .filter(organization_invitations::Column::CreatedAt.gt(now - Duration::days(1)));
        let today = day.clone().count(&txn).await?;
        if today + count > MAX_PER_DAY {
            // Until the oldest of the day's invitations leaves the 24 hours: the first moment
            // the count can fall.
            let oldest = day
                .select_only()
                .column_as(organization_invitations::Column::CreatedAt.min(), "oldest")
                .into_tuple::<Option<chrono::DateTime<Utc>>>()
                .one(&txn)
                .await?
                .flatten()
                .unwrap_or(now);
            let wait = (oldest + Duration::days(1) - now).num_seconds().max(1);
            return Err(Error::RateLimited {
                message: format!(
                    "An organization can send at most {MAX_PER_DAY} invitations a day. Please try again tomorrow."
                ),
                retry_after_secs: u64::try_from(wait).unwrap_or(1),
            });
        }

        let main = &ctx.config.platforms.main;
        let mut rows = Vec::with_capacity(fresh.len());
        let mut mails = Vec::with_capacity(fresh.len());
        for email in fresh {
            let token = tokens::random_token();
            let row = organization_invitations::Model {
                id: Uuid::new_v4(),
                organization_id: org.id,
                email,
                role,
                token_hash: tokens::sha256_hex(&token),
                status: InvitationStatus::Pending,
                invited_by: Some(viewer.user.id),
                expires_at: now + TTL,
                created_at: now,
                accepted_at: None,
            };
            mails.push(
                mail::invitation(
                    &ctx.config.app_name,
                    &row.email,
                    &viewer.user.name,
                    &org.name,
                    match role {
                        OrgRole::Owner => "an owner",
                        OrgRole::Admin => "an admin",
                        OrgRole::Member => "a member",
                    },
                    &format!("{main}/invitations/{token}"),
                    TTL.num_days(),
                )
                .secret_until(row.expires_at),
            );
            rows.push(row);
        }
        if !rows.is_empty() {
            organization_invitations::Entity::insert_many(rows.iter().cloned().map(active))
                .exec_without_returning(&txn)
                .await?;
            mail::enqueue_all(&txn, mails).await?;
            Event::new(Kind::OrganizationInvited, Some(viewer.user.id), client)
                .by(viewer.user.id)
                .detail(format!("organization {}: {} invited as {}", org.id, rows.len(), role.as_str()))
                .record(&txn)
                .await?;
        }
        Ok((rows, skipped))
    }
    .await;
    let (rows, skipped) = settle(txn, outcome).await?;
    if !rows.is_empty() {
        ctx.mail_ready.notify_one();
    }
    let invitations = rows
        .into_iter()
        .map(|row| (row, Some(viewer.user.clone())))
        .collect();
    Ok(Outcome { invitations, skipped })
}

/// The pending invitations, newest first (owners, org admins and site admins).
///
/// # Errors
/// 404 for outsiders; 403 for members.
pub async fn list(ctx: &Context, viewer: &Viewer, id: &str) -> Result<Vec<Sent>> {
    let access = access(&ctx.db, viewer, id).await?;
    access.require_manager()?;
    Ok(pending(access.org.id, Utc::now())
        .find_also_related(users::Entity)
        .order_by_desc(organization_invitations::Column::CreatedAt)
        .order_by_asc(organization_invitations::Column::Email)
        .limit(MAX_LISTED)
        .all(&ctx.db)
        .await?)
}

/// Revokes a pending invitation: its link stops working at once.
///
/// # Errors
/// 404 for outsiders and for an invitation that is not pending in this organization; 403 for
/// members.
#[tracing::instrument(skip_all)]
pub async fn revoke(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    invitation_id: &str,
    client: &ClientInfo,
) -> Result<()> {
    let access = access(&ctx.db, viewer, id).await?;
    access.require_manager()?;
    let not_found = || Error::NotFound(NOT_FOUND.to_owned());
    let invitation_id = Uuid::parse_str(invitation_id).map_err(|_| not_found())?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        let revoked = organization_invitations::Entity::update_many()
            .col_expr(
                organization_invitations::Column::Status,
                Expr::value(InvitationStatus::Revoked),
            )
            .filter(organization_invitations::Column::Id.eq(invitation_id))
            .filter(organization_invitations::Column::OrganizationId.eq(access.org.id))
            .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
            .exec(&txn)
            .await?;
        if revoked.rows_affected == 0 {
            return Err(not_found());
        }
        // Its mail, if an outage still holds it, does not go out after all.
        if let Some(invitation) = organization_invitations::Entity::find_by_id(invitation_id)
            .one(&txn)
            .await?
        {
            crate::mail::withdraw_secret(&txn, &invitation.email, invitation.expires_at).await?;
        }
        Event::new(Kind::OrganizationInvitationRevoked, Some(viewer.user.id), client)
            .by(viewer.user.id)
            .detail(format!(
                "organization {}: invitation {invitation_id}",
                access.org.id
            ))
            .record(&txn)
            .await?;
        Ok(())
    }
    .await;
    settle(txn, outcome).await
}

/// Revokes the pending invitations `inviter` sent in `organization` (in every organization when
/// `None`) that the role they hold now could not send: `None` when they are no longer a
/// member. An invitation grants what its sender may grant, and only while they still may: an
/// admin who is removed or made a member leaves no way back in through addresses they invited.
///
/// # Errors
/// On a database failure.
pub async fn revoke_beyond(
    txn: &impl ConnectionTrait,
    inviter: Uuid,
    organization: Option<Uuid>,
    now: Option<OrgRole>,
) -> Result<u64> {
    let beyond = match now {
        Some(OrgRole::Owner) => return Ok(0),
        Some(OrgRole::Admin) => Some(OrgRole::Owner),
        Some(OrgRole::Member) | None => None,
    };
    let mut which = Condition::all().add(organization_invitations::Column::InvitedBy.eq(inviter));
    if let Some(organization) = organization {
        which = which.add(organization_invitations::Column::OrganizationId.eq(organization));
    }
    if let Some(role) = beyond {
        which = which.add(organization_invitations::Column::Role.eq(role));
    }
    revoke_where(txn, which).await
}

/// Revokes the pending invitations `which` picks, and takes back their mails an outage still
/// holds (see [`crate::mail::withdraw_secret`]). Returns how many went.
async fn revoke_where(txn: &impl ConnectionTrait, which: Condition) -> Result<u64> {
    let pending = organization_invitations::Entity::find()
        .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
        .filter(which)
        .all(txn)
        .await?;
    if pending.is_empty() {
        return Ok(0);
    }
    let revoked = organization_invitations::Entity::update_many()
        .col_expr(
            organization_invitations::Column::Status,
            Expr::value(InvitationStatus::Revoked),
        )
        .filter(organization_invitations::Column::Id.is_in(pending.iter().map(|invitation| invitation.id)))
        .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
        .exec(txn)
        .await?;
    for invitation in &pending {
        crate::mail::withdraw_secret(txn, &invitation.email, invitation.expires_at).await?;
    }
    Ok(revoked.rows_affected)
}

/// Revokes the pending invitations `inviter` sent that their memberships alone could not have
/// sent: for when they stop being a site admin, whose power let them invite anyone anywhere.
/// Returns how many went.
///
/// # Errors
/// On a database failure.
pub async fn revoke_unbacked(txn: &impl ConnectionTrait, inviter: Uuid) -> Result<u64> {
    let memberships = members::memberships_of(txn, inviter).await?;
    let unbacked = Condition::all()
        .add(organization_invitations::Column::InvitedBy.eq(inviter))
        .add(
            organization_invitations::Column::OrganizationId
                .is_not_in(memberships.iter().map(|(organization, _)| *organization)),
        );
    let mut revoked = revoke_where(txn, unbacked).await?;
    for (organization, role) in memberships {
        revoked += revoke_beyond(txn, inviter, Some(organization), Some(role)).await?;
    }
    Ok(revoked)
}

/// Counts an invitation to `email` against its day's [`MAX_PER_ADDRESS_PER_DAY`] (in the
/// invitation's transaction, so a call refused later counts nothing), and says whether it may
/// be sent. The count is the address's, not the organization's: it outlives revocations and
/// deleted organizations.
async fn address_may_receive(ctx: &Context, txn: &impl ConnectionTrait, email: &str) -> Result<bool> {
    let key = format!(
        "invited:{}",
        ctx.keys.keyed_hash(&[&crate::accounts::fields::mailbox(email)])
    );
    match crate::rate_limit::hit(txn, &key, Duration::days(1), MAX_PER_ADDRESS_PER_DAY, "").await {
        Ok(()) => Ok(true),
        Err(Error::RateLimited { .. }) => Ok(false),
        Err(error) => Err(error),
    }
}

/// The audit detail's note of the invitations [`revoke_beyond`] revoked, if any.
pub fn revoked_note(revoked: u64) -> String {
    match revoked {
        0 => String::new(),
        1 => "; 1 pending invitation they sent revoked".to_owned(),
        n => format!("; {n} pending invitations they sent revoked"),
    }
}

/// What an invitation link shows: who invites whom where. Public: the token is the secret.
///
/// # Errors
/// 404 for an unknown token; 410 for one expired, revoked or used.
pub async fn show(ctx: &Context, token: &str) -> Result<Shown> {
    let (invitation, inviter) = by_token(&ctx.db, token).await?;
    let organization = organizations::Entity::find_by_id(invitation.organization_id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| Error::NotFound(NOT_FOUND.to_owned()))?;
    Ok(Shown {
        invitation: (invitation, inviter),
        organization,
    })
}

/// Joins the organization with the role the invitation names. Once: of twenty accepts at the
/// same moment one joins and the others find the link used.
///
/// # Errors
/// 404 unknown; 410 expired, revoked or used; 403 when the viewer's address is another, or
/// not verified.
#[tracing::instrument(skip_all)]
pub async fn accept(ctx: &Context, viewer: &Viewer, token: &str, client: &ClientInfo) -> Result<View> {
    let (invitation, _) = by_token(&ctx.db, token).await?;
    if !viewer.user.email.eq_ignore_ascii_case(&invitation.email) {
        return Err(Error::Forbidden(
            "This invitation is for another email address".to_owned(),
        ));
    }
    if !viewer.user.email_verified {
        return Err(Error::EmailNotVerified);
    }
    let now = Utc::now().trunc_subsecs(6);
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        // Under the organization's lock, as invitations are sent: an invite counting members
        // and pending invitations never misses one that is turning into the other.
        lock(&txn, invitation.organization_id).await?;
        a_seat_for_one_more(&txn, invitation.organization_id).await?;
        let used = organization_invitations::Entity::update_many()
            .col_expr(
                organization_invitations::Column::Status,
                Expr::value(InvitationStatus::Accepted),
            )
            .col_expr(
                organization_invitations::Column::AcceptedAt,
                Expr::value(Some(now)),
            )
            .filter(organization_invitations::Column::Id.eq(invitation.id))
            .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
            .filter(organization_invitations::Column::ExpiresAt.gt(now))
            .exec(&txn)
            .await?;
        if used.rows_affected == 0 {
            return Err(expired());
        }
        members::add(
            &txn,
            invitation.organization_id,
            &viewer.user,
            invitation.role,
            now,
        )
        .await?;
        Event::new(Kind::OrganizationJoined, Some(viewer.user.id), client)
            .by(viewer.user.id)
            .detail(format!("organization {}", invitation.organization_id))
            .record(&txn)
            .await?;
        Ok(())
    }
    .await;
    settle(txn, outcome).await?;
    let role = organization_members::Entity::find_by_id((invitation.organization_id, viewer.user.id))
        .one(&ctx.db)
        .await?
        .map(|m| m.role);
    let org = organizations::Entity::find_by_id(invitation.organization_id)
        .one(&ctx.db)
        .await?
        .ok_or_else(super::not_found)?;
    super::view(&ctx.db, org, role).await
}

/// The text of a successful decline.
pub const DECLINED: &str = "Invitation declined";

/// Turns an invitation down: its link stops working and the seat it held is free at once, as
/// when it is revoked. Public, as the link's page is: the token is the secret, mailed to the
/// invitee alone, who may have no account (and need none to say no).
///
/// # Errors
/// 404 for an unknown token; 410 for one expired, revoked or used (a second decline included).
#[tracing::instrument(skip_all)]
pub async fn decline(ctx: &Context, token: &str, client: &ClientInfo) -> Result<()> {
    let (invitation, _) = by_token(&ctx.db, token).await?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        let declined = organization_invitations::Entity::update_many()
            .col_expr(
                organization_invitations::Column::Status,
                Expr::value(InvitationStatus::Revoked),
            )
            .filter(organization_invitations::Column::Id.eq(invitation.id))
            .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
            .exec(&txn)
            .await?;
        if declined.rows_affected == 0 {
            return Err(expired());
        }
        // About no account: the address need not have one.
        Event::new(Kind::OrganizationInvitationDeclined, None, client)
            .detail(format!(
                "organization {}: invitation {} declined",
                invitation.organization_id, invitation.id
            ))
            .record(&txn)
            .await?;
        Ok(())
    }
    .await;
    settle(txn, outcome).await
}

/// Refuses a join when the members already fill the seat limit. A pending invitation holds its
/// seat, so this happens only after an admin has set the limit below the members and pending
/// invitations: nobody is removed, and no one joins until seats free up or the limit is raised.
/// Read under the organization's lock.
async fn a_seat_for_one_more(txn: &impl ConnectionTrait, organization_id: Uuid) -> Result<()> {
    let limit = organizations::Entity::find_by_id(organization_id)
        .one(txn)
        .await?
        .ok_or_else(super::not_found)?
        .seat_limit;
    if let Some(limit) = limit {
        let members = organization_members::Entity::find()
            .filter(organization_members::Column::OrganizationId.eq(organization_id))
            .count(txn)
            .await?;
        if members >= u64::try_from(limit).unwrap_or(0) {
            return Err(Error::SeatLimitReached);
        }
    }
    Ok(())
}

/// The text of a successful accept.
pub fn joined(name: &str) -> String {
    format!("You joined {name}")
}

fn expired() -> Error {
    Error::Expired("This invitation has expired".to_owned())
}

/// A pending invitation of `organization_id` that has not expired by `now`.
fn pending(
    organization_id: Uuid,
    now: chrono::DateTime<Utc>,
) -> sea_orm::Select<organization_invitations::Entity> {
    organization_invitations::Entity::find()
        .filter(organization_invitations::Column::OrganizationId.eq(organization_id))
        .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
        .filter(organization_invitations::Column::ExpiresAt.gt(now))
}

/// The invitation of a link's token, while it can still be accepted.
async fn by_token(db: &impl ConnectionTrait, token: &str) -> Result<Sent> {
    let not_found = || Error::NotFound(NOT_FOUND.to_owned());
    if token.is_empty() || token.len() > 256 {
        return Err(not_found());
    }
    let (invitation, inviter) = organization_invitations::Entity::find()
        .filter(organization_invitations::Column::TokenHash.eq(tokens::sha256_hex(token)))
        .find_also_related(users::Entity)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    if invitation.status != InvitationStatus::Pending || invitation.expires_at <= Utc::now() {
        return Err(expired());
    }
    Ok((invitation, inviter))
}

fn active(row: organization_invitations::Model) -> organization_invitations::ActiveModel {
    organization_invitations::ActiveModel {
        id: Set(row.id),
        organization_id: Set(row.organization_id),
        email: Set(row.email),
        role: Set(row.role),
        token_hash: Set(row.token_hash),
        status: Set(row.status),
        invited_by: Set(row.invited_by),
        expires_at: Set(row.expires_at),
        created_at: Set(row.created_at),
        accepted_at: Set(row.accepted_at),
    }
}
