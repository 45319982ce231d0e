//! Members: the list (owners first, then by name), role changes and removals. An organization
//! always keeps an owner: every change that could take the last one away runs under the
//! organization's lock and checks the count before it commits.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use entity::{
    organization_invitations::{self, InvitationStatus},
    organization_members::{self, OrgRole},
    organizations, users,
};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set, sea_query::OnConflict,
};
use uuid::Uuid;

use super::{Access, access, invitations, lock, locked_access, settle};
use crate::{
    accounts::sessions::Viewer,
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, Result},
    paging::{PageRequest, page_request},
};

pub const UPDATED: &str = "Member updated";
pub const REMOVED: &str = "Member removed";
pub const NOT_FOUND: &str = "Member not found";
pub const DEFAULT_LIMIT: i32 = 50;
pub const MAX_LIMIT: i32 = 100;

/// A member with their account.
pub type Member = (organization_members::Model, users::Model);

pub struct Page {
    pub items: Vec<Member>,
    /// The cursor after the last member, when more follow.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RoleForm {
    /// owner, admin or member.
    pub role: Option<String>,
}

/// The key the members list is ordered by: a name, lowercased.
pub(crate) fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Makes `user` a member of `organization_id` with `role`; an existing membership stays as
/// it is. Returns whether a membership was added.
pub(crate) async fn add(
    db: &impl ConnectionTrait,
    organization_id: Uuid,
    user: &users::Model,
    role: OrgRole,
    now: DateTime<Utc>,
) -> Result<bool> {
    let inserted = organization_members::Entity::insert(organization_members::ActiveModel {
        organization_id: Set(organization_id),
        user_id: Set(user.id),
        role: Set(role),
        rank: Set(role.rank()),
        name_key: Set(name_key(&user.name)),
        joined_at: Set(now),
    })
    .on_conflict(
        OnConflict::columns([
            organization_members::Column::OrganizationId,
            organization_members::Column::UserId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(inserted > 0)
}

/// Keeps the members lists' order when a person renames themself.
///
/// # Errors
/// On a database failure.
pub async fn renamed(db: &impl ConnectionTrait, user_id: Uuid, name: &str) -> Result<()> {
    organization_members::Entity::update_many()
        .col_expr(
            organization_members::Column::NameKey,
            sea_orm::sea_query::Expr::value(name_key(name)),
        )
        .filter(organization_members::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}

/// A page of members: owners first, then everyone else, each by name.
///
/// # Errors
/// 404 for outsiders; field errors for a limit outside 1-100 or a cursor this server did not
/// make.
pub async fn list(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    limit: Option<i32>,
    after: Option<&str>,
) -> Result<Page> {
    let access = access(&ctx.db, viewer, id).await?;
    let PageRequest { limit, after } = page_request(limit, DEFAULT_LIMIT, MAX_LIMIT, after, Cursor::decode)?;
    let mut query = organization_members::Entity::find()
        .find_also_related(users::Entity)
        .filter(organization_members::Column::OrganizationId.eq(access.org.id))
        .order_by_asc(organization_members::Column::Rank)
        .order_by_asc(organization_members::Column::NameKey)
        .order_by_asc(organization_members::Column::UserId)
        .limit(u64::try_from(limit + 1).unwrap_or(51));
    if let Some(after) = after {
        // Keyset pagination along the page index: (rank, name, id) after the cursor's.
        use organization_members::Column::{NameKey, Rank, UserId};
        query = query.filter(
            Condition::all().add(Rank.gte(after.rank)).add(
                Condition::any()
                    .add(Rank.gt(after.rank))
                    .add(NameKey.gt(after.name_key.clone()))
                    .add(
                        Condition::all()
                            .add(NameKey.eq(after.name_key.clone()))
                            .add(UserId.gt(after.user_id)),
                    ),
            ),
        );
    }
    let rows = query.all(&ctx.db).await?;
    let has_more = rows.len() > limit;
    let mut items: Vec<Member> = rows
        .into_iter()
        .filter_map(|(membership, user)| Some((membership, user?)))
        .collect();
    items.truncate(limit);
    let next_cursor = has_more
        .then(|| items.last().map(|(m, _)| Cursor::of(m).encode()))
        .flatten();
    Ok(Page { items, next_cursor })
}

/// Gives a member another role. Owners and site admins change any role; org admins move
/// people between `member` and `admin` only.
///
/// # Errors
/// 404 for outsiders or an unknown member; 403 for what the viewer's role does not allow;
/// field errors for a bad role; 409 when it would leave no owner.
#[tracing::instrument(skip_all)]
pub async fn change_role(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    user_id: &str,
    form: RoleForm,
    client: &ClientInfo,
) -> Result<Member> {
    let role = parse_role(form.role.as_deref()).map_err(|m| Error::field("role", m))?;
    let access = access(&ctx.db, viewer, id).await?;
    access.require_manager()?;
    let user_id = Uuid::parse_str(user_id).map_err(|_| member_not_found())?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        let access = locked_access(&txn, viewer, &access).await?;
        access.require_manager()?;
        let (member, user) = find(&txn, access.org.id, user_id).await?;
        let touches_owner = member.role == OrgRole::Owner || role == OrgRole::Owner;
        if touches_owner && !access.is_owner() {
            return Err(Error::Forbidden(super::OWNERS_ONLY.to_owned()));
        }
        let mut row: organization_members::ActiveModel = member.clone().into();
        row.role = Set(role);
        row.rank = Set(role.rank());
        let member = row.update(&txn).await?;
        ensure_an_owner(&txn, &access).await?;
        let revoked = invitations::revoke_beyond(&txn, user.id, Some(access.org.id), Some(role)).await?;
        let note = invitations::revoked_note(revoked);
        Event::new(Kind::OrganizationMemberChanged, Some(user.id), client)
            .by(viewer.user.id)
            .detail(format!("organization {}: {}{note}", access.org.id, role.as_str()))
            .record(&txn)
            .await?;
        Ok((member, user))
    }
    .await;
    settle(txn, outcome).await
}

/// Removes a member. Anyone may remove themself (leave); owners and site admins remove
/// anyone, org admins anyone but owners.
///
/// # Errors
/// 404 for outsiders or an unknown member; 403 for what the viewer's role does not allow;
/// 409 when it would leave no owner.
#[tracing::instrument(skip_all)]
pub async fn remove(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    user_id: &str,
    client: &ClientInfo,
) -> Result<()> {
    let access = access(&ctx.db, viewer, id).await?;
    let user_id = Uuid::parse_str(user_id).map_err(|_| member_not_found())?;
    let leaving = user_id == viewer.user.id;
    if !leaving {
        access.require_manager()?;
    }
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        let access = locked_access(&txn, viewer, &access).await?;
        if !leaving {
            access.require_manager()?;
        }
        let (member, user) = find(&txn, access.org.id, user_id).await?;
        if !leaving && member.role == OrgRole::Owner && !access.is_owner() {
            return Err(Error::Forbidden(super::OWNERS_ONLY.to_owned()));
        }
        organization_members::Entity::delete_by_id((access.org.id, user_id))
            .exec(&txn)
            .await?;
        ensure_an_owner(&txn, &access).await?;
        let revoked = invitations::revoke_beyond(&txn, user.id, Some(access.org.id), None).await?;
        let kind = if leaving {
            Kind::OrganizationLeft
        } else {
            Kind::OrganizationMemberRemoved
        };
        Event::new(kind, Some(user.id), client)
            .by(viewer.user.id)
            .detail(format!(
                "organization {}{}",
                access.org.id,
                invitations::revoked_note(revoked)
            ))
            .record(&txn)
            .await?;
        Ok(())
    }
    .await;
    settle(txn, outcome).await
}

/// The organizations `user_id` is in, with its role in each.
pub(super) async fn memberships_of(
    txn: &impl ConnectionTrait,
    user_id: Uuid,
) -> Result<Vec<(Uuid, OrgRole)>> {
    Ok(organization_members::Entity::find()
        .select_only()
        .column(organization_members::Column::OrganizationId)
        .column(organization_members::Column::Role)
        .filter(organization_members::Column::UserId.eq(user_id))
        .into_tuple()
        .all(txn)
        .await?)
}

/// What [`hand_over`] did, for the account's own audit event.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HandOver {
    /// The organizations the account was a member of.
    pub left: usize,
    /// The pending invitations it had sent.
    pub revoked: u64,
}

impl HandOver {
    /// The account deletion's audit detail: "left 2 organizations; 3 pending invitations they
    /// sent revoked", or nothing.
    pub fn note(self) -> String {
        let left = match self.left {
            0 => String::new(),
            1 => "left 1 organization".to_owned(),
            n => format!("left {n} organizations"),
        };
        let revoked = invitations::revoked_note(self.revoked);
        if left.is_empty() {
            revoked.trim_start_matches("; ").to_owned()
        } else {
            left + &revoked
        }
    }
}

/// Before an account goes: the invitations it sent are revoked; in each organization where it
/// is the only owner, the longest-standing admin (else member) becomes owner; an organization
/// with nobody left goes too. Each handing over and each deletion is an audit event by
/// `actor`, the one deleting the account.
///
/// # Errors
/// On a database failure.
pub async fn hand_over(
    txn: &impl ConnectionTrait,
    user_id: Uuid,
    actor: Uuid,
    client: &ClientInfo,
) -> Result<HandOver> {
    // Every organization it touches is locked first, in one order: each other change locks an
    // organization's row before its invitations and members (an accept, say), so taking the
    // invitations first here could close a cycle with one.
    let memberships = memberships_of(txn, user_id).await?;
    let mut touched: Vec<Uuid> = memberships.iter().map(|(id, _)| *id).collect();
    touched.extend(
        organization_invitations::Entity::find()
            .select_only()
            .column(organization_invitations::Column::OrganizationId)
            .filter(organization_invitations::Column::InvitedBy.eq(user_id))
            .filter(organization_invitations::Column::Status.eq(InvitationStatus::Pending))
            .into_tuple::<Uuid>()
            .all(txn)
            .await?,
    );
    touched.sort_unstable();
    touched.dedup();
    for organization_id in &touched {
        lock(txn, *organization_id).await?;
    }
    // Then the account's own row, after its organizations (the order an invitation takes them
    // in, see `super::locked_access`): an invitation it is sending meanwhile, as a site admin,
    // to an organization not counted above holds the row shared until it commits, so it is
    // seen and revoked below; one not yet there finds the account gone.
    crate::accounts::locked(txn, user_id).await?;
    // A membership committed between the first read and that lock (an organization founded in
    // that instant) is seen now, and no later one can commit: its reference to the account
    // waits on the lock. Those organizations are locked last, out of the order above; the one
    // change that could wait on this account's row while holding such an organization's lock is
    // an invitation the account itself sends to it in the same instant, and PostgreSQL ends that
    // cycle by refusing one of the two, which answers 503.
    let memberships = memberships_of(txn, user_id).await?;
    let mut founded: Vec<Uuid> = memberships
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| touched.binary_search(id).is_err())
        .collect();
    founded.sort_unstable();
    for organization_id in founded {
        lock(txn, organization_id).await?;
    }
    // Its invitations go with it, as they would with its memberships.
    let revoked = invitations::revoke_beyond(txn, user_id, None, None).await?;
    let left = memberships.len();
    let owned = memberships
        .into_iter()
        .filter(|(_, role)| *role == OrgRole::Owner)
        .map(|(id, _)| id);
    for organization_id in owned {
        let others = organization_members::Entity::find()
            .filter(organization_members::Column::OrganizationId.eq(organization_id))
            .filter(organization_members::Column::UserId.ne(user_id));
        let other_owners = others
            .clone()
            .filter(organization_members::Column::Role.eq(OrgRole::Owner))
            .count(txn)
            .await?;
        if other_owners > 0 {
            continue;
        }
        // The longest-serving admin, or else the longest-serving member.
        let heir = others
            .order_by_desc(organization_members::Column::Role.eq(OrgRole::Admin))
            .order_by_asc(organization_members::Column::JoinedAt)
            .one(txn)
            .await?;
        match heir {
            Some(heir) => {
                let heir_id = heir.user_id;
                let mut row: organization_members::ActiveModel = heir.into();
                row.role = Set(OrgRole::Owner);
                row.rank = Set(OrgRole::Owner.rank());
                row.update(txn).await?;
                Event::new(Kind::OrganizationMemberChanged, Some(heir_id), client)
                    .by(actor)
                    .detail(format!(
                        "organization {organization_id}: owner, its only owner's account deleted"
                    ))
                    .record(txn)
                    .await?;
            }
            None => {
                let slug = organizations::Entity::find_by_id(organization_id)
                    .one(txn)
                    .await?
                    .map(|org| org.slug)
                    .unwrap_or_default();
                organizations::Entity::delete_by_id(organization_id)
                    .exec(txn)
                    .await?;
                Event::new(Kind::OrganizationDeleted, Some(user_id), client)
                    .by(actor)
                    .detail(format!(
                        "organization {organization_id} ({slug}): nobody left once its owner's account was deleted"
                    ))
                    .record(txn)
                    .await?;
            }
        }
    }
    Ok(HandOver { left, revoked })
}

fn member_not_found() -> Error {
    Error::NotFound(NOT_FOUND.to_owned())
}

async fn find(db: &impl ConnectionTrait, organization_id: Uuid, user_id: Uuid) -> Result<Member> {
    organization_members::Entity::find_by_id((organization_id, user_id))
        .find_also_related(users::Entity)
        .one(db)
        .await?
        .and_then(|(member, user)| Some((member, user?)))
        .ok_or_else(member_not_found)
}

/// Inside the change's transaction, after it: refuses (and so rolls back) a change that left
/// the organization without an owner.
async fn ensure_an_owner(txn: &impl ConnectionTrait, access: &Access) -> Result<()> {
    let owners = organization_members::Entity::find()
        .filter(organization_members::Column::OrganizationId.eq(access.org.id))
        .filter(organization_members::Column::Role.eq(OrgRole::Owner))
        .count(txn)
        .await?;
    if owners == 0 {
        Err(Error::LastOwner)
    } else {
        Ok(())
    }
}

/// # Errors
/// The text that names the three roles.
pub(crate) fn parse_role(value: Option<&str>) -> Result<OrgRole, String> {
    // Any case, as an account's role is read.
    match value.map(|v| v.trim().to_lowercase()).as_deref() {
        Some("owner") => Ok(OrgRole::Owner),
        Some("admin") => Ok(OrgRole::Admin),
        Some("member") => Ok(OrgRole::Member),
        Some("") | None => Err("Role is required".to_owned()),
        Some(_) => Err("Role must be owner, admin or member".to_owned()),
    }
}

/// Where a page of members starts: after `(rank, name_key, user_id)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    rank: i16,
    name_key: String,
    user_id: Uuid,
}

impl Cursor {
    fn of(member: &organization_members::Model) -> Self {
        Self {
            rank: member.rank,
            name_key: member.name_key.clone(),
            user_id: member.user_id,
        }
    }

    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{}|{}|{}", self.rank, self.user_id, self.name_key))
    }

    /// `None` for anything this server did not make.
    pub fn decode(raw: &str) -> Option<Self> {
        let bytes = URL_SAFE_NO_PAD.decode(raw.trim()).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let mut parts = text.splitn(3, '|');
        let rank: i16 = parts.next()?.parse().ok()?;
        let user_id = Uuid::parse_str(parts.next()?).ok()?;
        let name_key = parts.next()?.to_owned();
        (!name_key.chars().any(char::is_control)).then_some(())?;
        // Rank 2 is a member's in cursors made before admins and members were listed together
        // by name: the same place now as 1.
        (0..=2).contains(&rank).then_some(Self {
            rank: rank.min(OrgRole::Member.rank()),
            name_key,
            user_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_round_trips_names_with_bars_and_garbage_is_refused() {
        let cursor = Cursor {
            rank: 1,
            name_key: "ann | bo".to_owned(),
            user_id: Uuid::new_v4(),
        };
        assert_eq!(Cursor::decode(&cursor.encode()), Some(cursor.clone()));
        let older = URL_SAFE_NO_PAD.encode(format!("2|{}|ann | bo", cursor.user_id));
        assert_eq!(
            Cursor::decode(&older),
            Some(cursor),
            "a member's place before the ranks merged"
        );
        for bad in [
            "",
            "abc",
            &URL_SAFE_NO_PAD.encode("7|x|y"),
            &URL_SAFE_NO_PAD.encode("1|nope|a"),
        ] {
            assert_eq!(Cursor::decode(bad), None, "{bad}");
        }
    }
}
