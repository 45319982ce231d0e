//! Organizations: Hire hiring teams and Campus institutes. A Hire or Campus account creates
//! one and owns it; owners and org admins invite people by email; members read it.
//!
//! Everything of an organization answers 404 to an outsider, never 403, so its id reveals
//! nothing. A site admin sees every organization, acts with an owner's rights and alone sets
//! the seat limit.

pub mod invitations;
pub mod members;

use std::{collections::HashMap, sync::LazyLock};

use chrono::{SubsecRound, Utc};
use entity::{
    organization_members::{self, OrgRole},
    organizations::{self, OrgKind},
    users::{self, Role},
};
use rand::{Rng, rngs::OsRng};
use regex::Regex;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter,
    QuerySelect, Set, TryIntoModel, sea_query::Expr,
};
use uuid::Uuid;

use crate::{
    accounts::sessions::Viewer,
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result, is_unique_violation},
    patch::Patch,
};

pub const MAX_NAME: usize = 100;
pub const CREATED: &str = "Organization created";
pub const UPDATED: &str = "Organization updated";
pub const DELETED: &str = "Organization deleted";
pub const NOT_FOUND: &str = "Organization not found";
pub const CAREER_CANNOT_CREATE: &str = "Only Hire and Campus accounts can create organizations";
pub const MANAGERS_ONLY: &str = "Only owners and admins of this organization can do this";
pub const OWNERS_ONLY: &str = "Only owners of this organization can do this";
pub const SEAT_LIMIT_ADMINS_ONLY: &str = "Only admins can set the seat limit";
const SLUG_RULE: &str = "Slug may use lowercase letters, digits and hyphens (3-40)";
/// The largest seat limit an admin may set.
pub(crate) const MAX_SEATS: i32 = 1_000_000;

static SLUG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[a-z0-9-]{3,40}$").expect("valid regex"));

/// An organization as one person sees it: its row, how many members it has, and their role
/// in it (`None` for a site admin who is not a member).
#[derive(Debug, Clone)]
pub struct View {
    pub org: organizations::Model,
    pub member_count: u64,
    pub my_role: Option<OrgRole>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateForm {
    pub name: Option<String>,
    /// Made from the name when left out.
    pub slug: Option<String>,
}

/// A partial update: a field left out stays as it is.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct UpdateForm {
    pub name: Option<String>,
    pub slug: Option<String>,
    /// Site admins only; `null` is unlimited.
    #[serde(deserialize_with = "crate::patch::whole")]
    pub seat_limit: Patch<i32>,
}

/// What the viewer is to an organization they may see.
pub(crate) struct Access {
    pub org: organizations::Model,
    /// `None`: a site admin who is not a member.
    pub role: Option<OrgRole>,
    pub site_admin: bool,
}

impl Access {
    /// Owners, org admins and site admins: invite, rename, manage members.
    pub fn require_manager(&self) -> Result<()> {
        if self.site_admin || matches!(self.role, Some(OrgRole::Owner | OrgRole::Admin)) {
            Ok(())
        } else {
            Err(Error::Forbidden(MANAGERS_ONLY.to_owned()))
        }
    }

    /// Owners and site admins: delete, make or unmake owners.
    pub fn is_owner(&self) -> bool {
        self.site_admin || self.role == Some(OrgRole::Owner)
    }

    pub fn require_owner(&self) -> Result<()> {
        if self.is_owner() {
            Ok(())
        } else {
            Err(Error::Forbidden(OWNERS_ONLY.to_owned()))
        }
    }
}

pub(crate) fn not_found() -> Error {
    Error::NotFound(NOT_FOUND.to_owned())
}

/// The organization `id` as `viewer` may see it: 404 unless they are a member or a site admin.
/// An outsider's answer costs one lookup whether the organization exists or not.
pub(crate) async fn access(db: &impl ConnectionTrait, viewer: &Viewer, id: &str) -> Result<Access> {
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    access_of(db, &viewer.user, id).await
}

async fn access_of(db: &impl ConnectionTrait, account: &users::Model, id: Uuid) -> Result<Access> {
    let site_admin = account.role == Role::Admin;
    let role = organization_members::Entity::find_by_id((id, account.id))
        .one(db)
        .await?
        .map(|membership| membership.role);
    if role.is_none() && !site_admin {
        return Err(not_found());
    }
    let org = organizations::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    Ok(Access {
        org,
        role,
        site_admin,
    })
}

/// How many members each organization has.
pub(crate) async fn member_counts(db: &impl ConnectionTrait, ids: &[Uuid]) -> Result<HashMap<Uuid, u64>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(Uuid, i64)> = organization_members::Entity::find()
        .select_only()
        .column(organization_members::Column::OrganizationId)
        .column_as(organization_members::Column::UserId.count(), "count")
        .filter(organization_members::Column::OrganizationId.is_in(ids.iter().copied()))
        .group_by(organization_members::Column::OrganizationId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, count)| (id, u64::try_from(count).unwrap_or(0)))
        .collect())
}

pub(crate) async fn view(
    db: &impl ConnectionTrait,
    org: organizations::Model,
    my_role: Option<OrgRole>,
) -> Result<View> {
    let member_count = member_counts(db, &[org.id]).await?.remove(&org.id).unwrap_or(0);
    Ok(View {
        org,
        member_count,
        my_role,
    })
}

/// The viewer's organizations, by name.
///
/// # Errors
/// On a database failure.
pub async fn list_mine(ctx: &Context, viewer: &Viewer) -> Result<Vec<View>> {
    list_of(&ctx.db, viewer.user.id).await
}

/// The organizations `user_id` belongs to, by name as a person reads it (whatever the case,
/// as the members list is ordered), with their role in each.
///
/// # Errors
/// On a database failure.
pub async fn list_of(db: &impl ConnectionTrait, user_id: Uuid) -> Result<Vec<View>> {
    let mut rows = organization_members::Entity::find()
        .find_also_related(organizations::Entity)
        .filter(organization_members::Column::UserId.eq(user_id))
        .all(db)
        .await?;
    // A person's organizations are few and come in one page: ordered here, with the key the
    // members list uses, rather than by each database's own idea of case.
    rows.sort_by_cached_key(|(membership, org)| {
        let name = org.as_ref().map(|org| members::name_key(&org.name));
        (name, membership.organization_id)
    });
    let ids: Vec<Uuid> = rows.iter().map(|(m, _)| m.organization_id).collect();
    let mut counts = member_counts(db, &ids).await?;
    Ok(rows
        .into_iter()
        .filter_map(|(membership, org)| {
            let org = org?;
            Some(View {
                member_count: counts.remove(&org.id).unwrap_or(0),
                my_role: Some(membership.role),
                org,
            })
        })
        .collect())
}

/// One organization, for its members and site admins.
///
/// # Errors
/// 404 for everyone else.
pub async fn get(ctx: &Context, viewer: &Viewer, id: &str) -> Result<View> {
    let access = access(&ctx.db, viewer, id).await?;
    view(&ctx.db, access.org, access.role).await
}

/// Creates an organization of the viewer's platform, with the viewer as its owner.
///
/// # Errors
/// Field errors; 403 for a Career account; 409 for a slug that is taken.
#[tracing::instrument(skip_all)]
pub async fn create(ctx: &Context, viewer: &Viewer, form: CreateForm, client: &ClientInfo) -> Result<View> {
    let kind = match viewer.user.role {
        Role::Hire => OrgKind::Hire,
        Role::Campus => OrgKind::Campus,
        Role::Career | Role::Admin => return Err(Error::Forbidden(CAREER_CANNOT_CREATE.to_owned())),
    };
    let mut errors = FieldErrors::new();
    let name = errors.check("name", parse_name(form.name.as_deref()));
    // An empty slug is one left out; any other is taken as written (the contract's pattern).
    let slug = match form.slug.as_deref().filter(|s| !s.is_empty()) {
        Some(slug) => errors.check("slug", parse_slug(slug)).map(Some),
        None => Some(None),
    };
    let (Some(name), Some(slug)) = (name, slug) else {
        return Err(Error::Validation(errors));
    };
    let chosen = slug.is_some();
    let base = slug.unwrap_or_else(|| slug_from(&name));
    // A slug made from the name gets a short suffix when taken; one the person chose is theirs
    // or a conflict.
    for attempt in 0..5 {
        let slug = if attempt == 0 {
            base.clone()
        } else {
            with_suffix(&base)
        };
        match insert(ctx, viewer, &name, &slug, kind, client).await {
            Err(Error::Conflict(_)) if !chosen => {}
            result => return result,
        }
    }
    Err(Error::Conflict(SLUG_TAKEN.to_owned()))
}

pub const SLUG_TAKEN: &str = "An organization with this slug already exists";

async fn insert(
    ctx: &Context,
    viewer: &Viewer,
    name: &str,
    slug: &str,
    kind: OrgKind,
    client: &ClientInfo,
) -> Result<View> {
    let now = Utc::now().trunc_subsecs(6);
    let txn = crate::db::begin_write(&ctx.db).await?;
    let org = organizations::ActiveModel {
        id: Set(Uuid::new_v4()),
        name: Set(name.to_owned()),
        slug: Set(slug.to_owned()),
        kind: Set(kind),
        seat_limit: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&txn)
    .await
    .map_err(|err| {
        if is_unique_violation(&err, "organizations_slug_key", "organizations.slug") {
            Error::Conflict(SLUG_TAKEN.to_owned())
        } else {
            err.into()
        }
    })?;
    members::add(&txn, org.id, &viewer.user, OrgRole::Owner, now).await?;
    Event::new(Kind::OrganizationCreated, Some(viewer.user.id), client)
        .by(viewer.user.id)
        .detail(format!("organization {}", org.id))
        .record(&txn)
        .await?;
    txn.commit().await?;
    Ok(View {
        org,
        member_count: 1,
        my_role: Some(OrgRole::Owner),
    })
}

/// Renames the organization or changes its slug (owners and org admins), or its seat limit
/// (site admins).
///
/// # Errors
/// 404 for outsiders; 403 for members; field errors; 409 for a slug that is taken.
#[tracing::instrument(skip_all)]
pub async fn update(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    form: UpdateForm,
    client: &ClientInfo,
) -> Result<View> {
    let access = access(&ctx.db, viewer, id).await?;
    access.require_manager()?;
    if form.seat_limit != Patch::Unchanged && !access.site_admin {
        return Err(Error::Forbidden(SEAT_LIMIT_ADMINS_ONLY.to_owned()));
    }
    let mut errors = FieldErrors::new();
    let mut row: organizations::ActiveModel = access.org.clone().into();
    if let Some(name) = form.name.as_deref()
        && let Some(name) = errors.check("name", parse_name(Some(name)))
    {
        row.name = Set(name);
    }
    if let Some(slug) = form.slug.as_deref()
        && let Some(slug) = errors.check("slug", parse_slug(slug))
    {
        row.slug = Set(slug);
    }
    match form.seat_limit {
        Patch::Unchanged => {}
        Patch::Clear => row.seat_limit = Set(None),
        Patch::Set(limit) if (1..=MAX_SEATS).contains(&limit) => row.seat_limit = Set(Some(limit)),
        Patch::Set(_) => errors.add(
            "seatLimit",
            format!("Seat limit must be a whole number from 1 to {MAX_SEATS}"),
        ),
    }
    errors.into_result()?;
    // Nothing new (an empty body, or the values it has already): nothing is written, and no
    // event says it changed.
    let changed = changes(&access.org, &row.clone().try_into_model()?);
    if changed.is_empty() {
        return view(&ctx.db, access.org, access.role).await;
    }
    row.updated_at = Set(Utc::now().trunc_subsecs(6));
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        // The role read again under the organization's lock: an owner removed or demoted in
        // the same instant renames nothing.
        let now = locked_access(&txn, viewer, &access).await?;
        now.require_manager()?;
        if form.seat_limit != Patch::Unchanged && !now.site_admin {
            return Err(Error::Forbidden(SEAT_LIMIT_ADMINS_ONLY.to_owned()));
        }
        let org = row.update(&txn).await.map_err(|err| {
            if is_unique_violation(&err, "organizations_slug_key", "organizations.slug") {
                Error::Conflict(SLUG_TAKEN.to_owned())
            } else {
                err.into()
            }
        })?;
        Event::new(Kind::OrganizationUpdated, Some(viewer.user.id), client)
            .by(viewer.user.id)
            .detail(format!("organization {}{changed}", org.id))
            .record(&txn)
            .await?;
        Ok((org, now.role))
    }
    .await;
    let (org, role) = settle(txn, outcome).await?;
    view(&ctx.db, org, role).await
}

/// What an update changed, for the audit log: `: seat limit 25 → 40, slug acme → acme-hiring`;
/// empty when it changed nothing.
fn changes(before: &organizations::Model, after: &organizations::Model) -> String {
    let seats = |limit: Option<i32>| limit.map_or_else(|| "unlimited".to_owned(), |n| n.to_string());
    let mut changed = Vec::new();
    if before.name != after.name {
        changed.push(format!("name {} → {}", before.name, after.name));
    }
    if before.slug != after.slug {
        changed.push(format!("slug {} → {}", before.slug, after.slug));
    }
    if before.seat_limit != after.seat_limit {
        changed.push(format!(
            "seat limit {} → {}",
            seats(before.seat_limit),
            seats(after.seat_limit)
        ));
    }
    if changed.is_empty() {
        String::new()
    } else {
        format!(": {}", changed.join(", "))
    }
}

/// Deletes the organization with its memberships and invitations (owners and site admins).
///
/// # Errors
/// 404 for outsiders; 403 for members and org admins.
#[tracing::instrument(skip_all)]
pub async fn delete(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<()> {
    let access = access(&ctx.db, viewer, id).await?;
    access.require_owner()?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let outcome = async {
        // Under the organization's lock: an owner removed or demoted in the same instant
        // deletes nothing, and of deletions sent together one deletes it and is recorded; the
        // others find it gone (404).
        locked_access(&txn, viewer, &access).await?.require_owner()?;
        organizations::Entity::delete_by_id(access.org.id)
            .exec(&txn)
            .await?;
        Event::new(Kind::OrganizationDeleted, Some(viewer.user.id), client)
            .by(viewer.user.id)
            .detail(format!("organization {} ({})", access.org.id, access.org.slug))
            .record(&txn)
            .await?;
        Ok(())
    }
    .await;
    settle(txn, outcome).await
}

/// Ends `txn` as `outcome` says: committed after a success, rolled back after a refusal, and
/// both awaited, so the connection goes back to the pool clean whatever happened.
pub(crate) async fn settle<T>(txn: DatabaseTransaction, outcome: Result<T>) -> Result<T> {
    match outcome {
        Ok(value) => {
            txn.commit().await?;
            Ok(value)
        }
        Err(err) => {
            txn.rollback().await?;
            Err(err)
        }
    }
}

/// Locks the organization of `access` and reads the viewer's access to it again, from their
/// account as it now stands: a removal, demotion or suspension that committed meanwhile (and
/// revoked what they had sent) is seen before anything is done in the role they lost. The
/// account's row stays share-locked until `txn` ends (PostgreSQL; SQLite's write lock already
/// holds everything), so one that commits later waits for this change, then sees and revokes it.
///
/// # Errors
/// 404 when the organization is gone, or the viewer is no longer in it or no longer a site
/// admin; 403 'This account has been suspended'.
pub(crate) async fn locked_access(
    txn: &impl ConnectionTrait,
    viewer: &Viewer,
    access: &Access,
) -> Result<Access> {
    lock(txn, access.org.id).await?;
    let account = users::Entity::find_by_id(viewer.user.id)
        .lock_shared()
        .one(txn)
        .await?
        .ok_or_else(not_found)?;
    crate::accounts::ensure_can_sign_in(&account)?;
    access_of(txn, &account, access.org.id).await
}

/// Takes the organization's row lock inside `txn`: the changes that count owners, seats or
/// the day's invitations run one at a time per organization, on both databases.
pub(crate) async fn lock(txn: &impl ConnectionTrait, id: Uuid) -> Result<()> {
    let touched = organizations::Entity::update_many()
        .col_expr(organizations::Column::Id, Expr::col(organizations::Column::Id))
        .filter(organizations::Column::Id.eq(id))
        .exec(txn)
        .await?;
    if touched.rows_affected == 0 {
        return Err(not_found());
    }
    Ok(())
}

fn parse_name(value: Option<&str>) -> Result<String, String> {
    let name = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or("Organization name is required")?;
    if name.chars().count() > MAX_NAME || name.chars().any(crate::accounts::fields::is_hidden_or_control) {
        return Err(format!(
            "Organization name must be at most {MAX_NAME} characters, without control characters"
        ));
    }
    Ok(name.to_owned())
}

fn parse_slug(value: &str) -> Result<String, String> {
    if SLUG.is_match(value) {
        Ok(value.to_owned())
    } else {
        Err(SLUG_RULE.to_owned())
    }
}

/// `Acme Hiring, Inc.` → `acme-hiring-inc`, `École Zoë` → `ecole-zoe`; padded to three
/// characters, cut to 32.
fn slug_from(name: &str) -> String {
    use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};
    let mut slug = String::new();
    // Decomposed, an accented letter is its base letter and a mark, and the mark is dropped.
    for c in name
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
    {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let mut slug: String = slug.trim_matches('-').chars().take(32).collect();
    slug = slug.trim_end_matches('-').to_owned();
    if slug.len() < 3 {
        slug = if slug.is_empty() {
            "org".to_owned()
        } else {
            format!("{slug}-org")
        };
    }
    slug
}

fn with_suffix(base: &str) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let suffix: String = (0..4)
        .map(|_| char::from(ALPHABET[OsRng.gen_range(0..ALPHABET.len())]))
        .collect();
    format!("{base}-{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_made_from_names_and_checked() {
        assert_eq!(slug_from("Acme Hiring, Inc."), "acme-hiring-inc");
        assert_eq!(slug_from("IIT"), "iit");
        assert_eq!(slug_from("Ü"), "u-org");
        assert_eq!(
            slug_from("École Polytechnique de Montréal"),
            "ecole-polytechnique-de-montreal"
        );
        assert_eq!(slug_from("São Paulo Søk ﬁne"), "sao-paulo-s-k-fine");
        assert_eq!(slug_from("Иван"), "org");
        assert_eq!(slug_from("AB"), "ab-org");
        assert!(slug_from(&"x".repeat(90)).len() <= 32);
        assert!(parse_slug(&with_suffix(&slug_from(&"long name ".repeat(10)))).is_ok());
        for bad in ["ab", "Acme", "acme_hiring", &"a".repeat(41)] {
            assert_eq!(parse_slug(bad), Err(SLUG_RULE.to_owned()), "{bad}");
        }
    }
}
