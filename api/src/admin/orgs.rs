//! Organizations as the console lists them: every one, by name, a prefix search, a page at a
//! time, with member counts; and the console's seat limit, set through `organizations::update`.

use entity::organizations;
use sea_orm::Condition;
use uuid::Uuid;

use super::{Order, console_page, ordered_page, require_admin, search_query, starts_with};
use crate::{
    accounts::sessions::Viewer,
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    organizations::{UpdateForm, View, member_counts},
    patch::Patch,
};

/// Sets an organization's seat limit (`Patch::Clear` lifts it). This call sets it and nothing
/// else, so one left out is a mistake, not a no-op.
///
/// # Errors
/// 403 for anyone but an admin; "Seat limit is required" when it is left out; as
/// `organizations::update`.
pub async fn set_seat_limit(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    seat_limit: Patch<i32>,
    client: &ClientInfo,
) -> Result<View> {
    require_admin(viewer)?;
    if seat_limit == Patch::Unchanged {
        return Err(Error::field("seatLimit", "Seat limit is required"));
    }
    let form = UpdateForm {
        name: None,
        slug: None,
        seat_limit,
    };
    crate::organizations::update(ctx, viewer, id, form, client).await
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct OrgSearchForm {
    pub query: Option<String>,
    pub limit: Option<i32>,
    pub cursor: Option<String>,
}

pub struct OrgPage {
    pub items: Vec<View>,
    pub next_cursor: Option<String>,
}

/// A page of organizations whose name starts with `query` (case-insensitive), by name.
///
/// # Errors
/// 403 for anyone but an admin; field errors for the query, limit or cursor.
pub async fn search(ctx: &Context, viewer: &Viewer, form: OrgSearchForm) -> Result<OrgPage> {
    require_admin(viewer)?;
    let mut errors = FieldErrors::new();
    let query = errors
        .check("query", search_query(form.query.as_deref()))
        .flatten();
    let page = console_page(errors, form.limit, form.cursor.as_deref())?;
    let mut condition = Condition::all();
    if let Some(q) = &query {
        condition = condition.add(starts_with(ctx.db.get_database_backend(), "name", true, q));
    }
    let (rows, next_cursor) = ordered_page::<organizations::Entity>(
        &ctx.db,
        ("organizations", organizations::Column::Id),
        Order::Name,
        condition,
        &page,
        |org| org.id,
    )
    .await?;
    let ids: Vec<Uuid> = rows.iter().map(|org| org.id).collect();
    let mut counts = member_counts(&ctx.db, &ids).await?;
    Ok(OrgPage {
        items: rows
            .into_iter()
            .map(|org| View {
                member_count: counts.remove(&org.id).unwrap_or(0),
                my_role: None,
                org,
            })
            .collect(),
        next_cursor,
    })
}
