//! The news feed: public reading of published items, newest first with cursor pagination;
//! writing for admins only. Drafts are visible to admins only.

mod cursor;
pub mod public_cache;

use crate::patch::Patch;
use chrono::{SubsecRound, Utc};
use entity::{news, users};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use uuid::Uuid;

pub use cursor::Cursor;

use crate::{
    accounts::{fields::MAX_STRING, sessions::Viewer},
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    paging::{PageRequest, page_request},
};

pub const MAX_TITLE: usize = 200;
pub const MAX_SUMMARY: usize = 500;
pub const MAX_BODY: usize = 20_000;
pub const DEFAULT_LIMIT: i32 = 20;
pub const MAX_LIMIT: i32 = 50;
pub const NOT_FOUND: &str = "News item not found";
pub const ADMINS_ONLY: &str = "Only admins can manage news";

/// An item with its author (gone once the author's account is deleted).
pub type Item = (news::Model, Option<users::Model>);

pub struct Page {
    pub items: Vec<Item>,
    /// The cursor after the last item, when more follow.
    pub next_cursor: Option<String>,
}

pub const CREATED: &str = "News item created";
pub const UPDATED: &str = "News item updated";
pub const DELETED: &str = "News item deleted";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NewsForm {
    pub title: Option<String>,
    pub summary: Option<String>,
    pub body: Option<String>,
    /// An http(s) URL, or null.
    pub image_url: Option<String>,
    /// Drafts (the default) are visible to admins only.
    pub published: Option<bool>,
}

/// A partial update: a field left out stays as it is (a required one sent as null is refused).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NewsPatch {
    pub title: Patch<String>,
    pub summary: Patch<String>,
    pub body: Patch<String>,
    pub image_url: Patch<String>,
    pub published: Option<bool>,
}

/// One page of the feed, newest first. `viewer_is_admin` adds drafts.
///
/// # Errors
/// Field errors for a limit outside 1-50 or a cursor this server did not make.
pub async fn list(
    ctx: &Context,
    viewer_is_admin: bool,
    limit: Option<i32>,
    after: Option<&str>,
) -> Result<Page> {
    let PageRequest { limit, after } = page_request(limit, DEFAULT_LIMIT, MAX_LIMIT, after, Cursor::decode)?;

    let mut query = news::Entity::find()
        .find_also_related(users::Entity)
        .order_by_desc(news::Column::CreatedAt)
        .order_by_desc(news::Column::Id)
        .limit(u64::try_from(limit + 1).unwrap_or(21));
    if !viewer_is_admin {
        query = query.filter(news::Column::Published.eq(true));
    }
    if let Some(after) = after {
        // Keyset pagination: items added meanwhile land before the cursor, never inside a page.
        // The plain `created_at <=` bound lets both databases start the index range at the
        // cursor, so page 5,000 costs what page 1 does; the OR then drops the ties before it.
        query = query.filter(
            Condition::all()
                .add(news::Column::CreatedAt.lte(after.created_at))
                .add(
                    Condition::any()
                        .add(news::Column::CreatedAt.lt(after.created_at))
                        .add(news::Column::Id.lt(after.id)),
                ),
        );
    }
    let mut items = query.all(&ctx.db).await?;
    let has_more = items.len() > limit;
    items.truncate(limit);
    let next_cursor = has_more
        .then(|| items.last().map(|(item, _)| Cursor::of(item).encode()))
        .flatten();
    Ok(Page { items, next_cursor })
}

/// One item. A draft is found only by an admin.
///
/// # Errors
/// 404 for an unknown or malformed id, or a draft when the viewer is not an admin.
pub async fn get(ctx: &Context, viewer_is_admin: bool, id: &str) -> Result<Item> {
    let not_found = || Error::NotFound(NOT_FOUND.to_owned());
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    let (item, author) = news::Entity::find_by_id(id)
        .find_also_related(users::Entity)
        .one(&ctx.db)
        .await?
        .ok_or_else(not_found)?;
    if !item.published && !viewer_is_admin {
        return Err(not_found());
    }
    Ok((item, author))
}

/// # Errors
/// 403 for a non-admin; field errors.
#[tracing::instrument(skip_all)]
pub async fn create(ctx: &Context, viewer: &Viewer, form: NewsForm, client: &ClientInfo) -> Result<Item> {
    viewer.require_admin(ADMINS_ONLY)?;
    let mut errors = FieldErrors::new();
    let title = errors.check("title", required_text(form.title.as_deref(), "Title", MAX_TITLE));
    let summary = errors.check(
        "summary",
        required_text(form.summary.as_deref(), "Summary", MAX_SUMMARY),
    );
    let body = errors.check("body", required_text(form.body.as_deref(), "Body", MAX_BODY));
    let image_url = errors.check("imageUrl", image_url(form.image_url.as_deref()));
    let (Some(title), Some(summary), Some(body), Some(image_url)) = (title, summary, body, image_url) else {
        return Err(Error::Validation(errors));
    };
    // Microseconds: what PostgreSQL keeps, so cursors compare the same on both databases.
    let now = Utc::now().trunc_subsecs(6);
    let published = form.published.unwrap_or(false);
    let item = news::ActiveModel {
        id: Set(Uuid::new_v4()),
        title: Set(title),
        summary: Set(summary),
        body: Set(body),
        image_url: Set(image_url),
        published: Set(published),
        published_at: Set(published.then_some(now)),
        author_id: Set(Some(viewer.user.id)),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(&ctx.db)
    .await?;
    admin_action(ctx, viewer, Kind::NewsCreated, item.id, client).await?;
    Ok((item, Some(viewer.user.clone())))
}

/// # Errors
/// 403 for a non-admin; 404 for an unknown id; field errors.
#[tracing::instrument(skip_all)]
pub async fn update(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    patch: NewsPatch,
    client: &ClientInfo,
) -> Result<Item> {
    viewer.require_admin(ADMINS_ONLY)?;
    let (item, author) = get(ctx, true, id).await?;
    let mut errors = FieldErrors::new();
    let mut row: news::ActiveModel = item.clone().into();
    if let Some(title) = changed_text(&mut errors, "title", patch.title, "Title", MAX_TITLE) {
        row.title = Set(title);
    }
    if let Some(summary) = changed_text(&mut errors, "summary", patch.summary, "Summary", MAX_SUMMARY) {
        row.summary = Set(summary);
    }
    if let Some(body) = changed_text(&mut errors, "body", patch.body, "Body", MAX_BODY) {
        row.body = Set(body);
    }
    match patch.image_url {
        Patch::Unchanged => {}
        Patch::Clear => row.image_url = Set(None),
        Patch::Set(url) => {
            if let Some(url) = errors.check("imageUrl", image_url(Some(&url))) {
                row.image_url = Set(url);
            }
        }
    }
    errors.into_result()?;
    let now = Utc::now().trunc_subsecs(6);
    if let Some(published) = patch.published {
        row.published = Set(published);
        if published && item.published_at.is_none() {
            row.published_at = Set(Some(now));
        }
    }
    row.updated_at = Set(now);
    let item = row.update(&ctx.db).await?;
    admin_action(ctx, viewer, Kind::NewsUpdated, item.id, client).await?;
    Ok((item, author))
}

/// # Errors
/// 403 for a non-admin; 404 for an unknown id.
#[tracing::instrument(skip_all)]
pub async fn delete(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<()> {
    viewer.require_admin(ADMINS_ONLY)?;
    let not_found = || Error::NotFound(NOT_FOUND.to_owned());
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    let deleted = news::Entity::delete_by_id(id).exec(&ctx.db).await?;
    if deleted.rows_affected == 0 {
        return Err(not_found());
    }
    admin_action(ctx, viewer, Kind::NewsDeleted, id, client).await
}

/// After a write: the audit log names the item, and this instance's rendered public feed is
/// emptied so its next reader sees the change (another instance's within its second).
async fn admin_action(
    ctx: &Context,
    viewer: &Viewer,
    kind: Kind,
    id: Uuid,
    client: &ClientInfo,
) -> Result<()> {
    ctx.public_feed.clear();
    Event::new(kind, None, client)
        .by(viewer.user.id)
        .detail(format!("news {id}"))
        .record(&ctx.db)
        .await
}

/// A required text in a partial update, when it changes: left out it stays as it is, null or
/// blank is refused as a missing one would be.
fn changed_text(
    errors: &mut FieldErrors,
    field: &str,
    patch: Patch<String>,
    label: &str,
    max: usize,
) -> Option<String> {
    let value = match patch {
        Patch::Unchanged => return None,
        Patch::Clear => None,
        Patch::Set(value) => Some(value),
    };
    errors.check(field, required_text(value.as_deref(), label, max))
}

fn required_text(value: Option<&str>, label: &str, max: usize) -> Result<String, String> {
    let value = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{label} is required"))?;
    if value.chars().count() > max {
        return Err(format!("{label} must be at most {max} characters"));
    }
    if crate::accounts::fields::has_stray_control(value) {
        return Err(format!("{label} cannot contain control characters"));
    }
    Ok(value.to_owned())
}

fn image_url(value: Option<&str>) -> Result<Option<String>, String> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if value.chars().count() > MAX_STRING {
        return Err(format!("Image URL must be at most {MAX_STRING} characters"));
    }
    let ok =
        url::Url::parse(value).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
    if ok {
        Ok(Some(value.to_owned()))
    } else {
        Err("Image URL must be a valid http(s) URL".to_owned())
    }
}
