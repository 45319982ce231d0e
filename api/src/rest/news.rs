//! `/news` and `/news/{id}`.

use axum::{
    body::Bytes,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use serde_json::json;

use super::{
    envelope::{Answer, Reply, data_json},
    input::{Input, Params, Segments},
    openapi::{cursor_param, item_data, limit_param, nullable_string, object, ok, operation, prose},
    routes::Routes,
};
use crate::{
    accounts::sessions::{self, Viewer},
    error::Error,
    graphql::news::NewsItem,
    http::caller::Caller,
    http::error::ErrorResponse,
    http::extract::MaybeViewer,
    news::{self, NewsForm, NewsPatch},
    state::AppState,
};

/// The routes of news: path, handler and OpenAPI entry.
pub fn routes() -> Routes {
    // A new item needs its three texts; a change may leave any field out.
    let fields = |required: &[&str]| {
        object(
            &[
                ("title", prose(200)),
                ("summary", prose(500)),
                ("body", prose(20000)),
                ("imageUrl", nullable_string()),
                ("published", json!({ "type": "boolean" })),
            ],
            required,
        )
    };
    let admins_only = ("403", "Only admins can manage news");
    let not_found = ("404", "News item not found");
    Routes::new()
        .get("/news", list, operation("Published news, newest first (drafts too for admins)")
            .param(limit_param(20, 50))
            .param(cursor_param())
            .answers(("200", ok("A page", Some(object(&[("items", json!({ "type": "array", "items": { "$ref": "#/components/schemas/NewsItem" } })), ("nextCursor", nullable_string())], &["items", "nextCursor"])))), &[("400", "Bad limit or cursor")]))
        .post("/news", create, operation("Create a news item (admins)")
            .signed_in()
            .body(fields(&["title", "summary", "body"]))
            .answers(("201", ok("News item created", Some(item_data()))), &[("400", "Field errors"), ("401", "Not signed in"), admins_only]))
        .get("/news/{id}", item, operation("One news item")
            .id_param("id")
            .answers(("200", ok("The item", Some(item_data()))), &[not_found]))
        .put("/news/{id}", update, operation("Change a news item (admins); fields left out stay")
            .signed_in()
            .id_param("id")
            .optional_body(fields(&[]))
            .answers(("200", ok("News item updated", Some(item_data()))), &[("400", "Field errors"), ("401", "Not signed in"), admins_only, not_found]))
        .delete("/news/{id}", remove, operation("Delete a news item (admins)")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("News item deleted", None)), &[("401", "Not signed in"), admins_only, not_found]))
}

#[derive(Deserialize)]
struct ListParams {
    limit: Option<String>,
    cursor: Option<String>,
}

/// The feed and its items are read far more than anything else is written: they skip
/// GraphQL and call what the `news` and `newsItem` resolvers call, for the same JSON.
async fn list(State(state): State<AppState>, caller: Caller, Params(params): Params<ListParams>) -> Response {
    // A limit that is not a number is passed as 0, so the domain answers with its own text.
    let (first, after) = match params {
        Some(params) => (
            params.limit.map(|l| l.trim().parse::<i32>().unwrap_or(0)),
            params.cursor,
        ),
        None => (Some(0), None),
    };
    // Anonymous visitors all see the same pages: render each once a second at most.
    let anonymous = caller.token.is_none();
    if anonymous && let Some(page) = state.public_feed.get(first, after.as_deref()) {
        return ([(header::CONTENT_TYPE, "application/json")], page).into_response();
    }
    let page = async {
        let is_admin = sessions::optional(&state, caller.token.as_deref())
            .await?
            .is_some_and(|viewer| viewer.is_admin());
        news::list(&state, is_admin, first, after.as_deref()).await
    };
    match page.await {
        Ok(page) => {
            let feed = Feed {
                items: page.items.into_iter().map(NewsItem::from).collect(),
                next_cursor: page.next_cursor,
            };
            if !anonymous {
                return Reply::data(feed).into_response();
            }
            match data_json(&feed) {
                Ok(body) => {
                    let body = Bytes::from(body);
                    state.public_feed.put(first, after.as_deref(), body.clone());
                    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
                }
                Err(err) => ErrorResponse::from(Error::internal(err)).into_response(),
            }
        }
        Err(err) => ErrorResponse::from(err).into_response(),
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Feed {
    items: Vec<NewsItem>,
    next_cursor: Option<String>,
}

#[derive(serde::Serialize)]
struct ItemData {
    item: NewsItem,
}

async fn item(
    State(state): State<AppState>,
    Segments(id): Segments<String>,
    viewer: MaybeViewer,
) -> Answer<ItemData> {
    let item = news::get(&state, viewer.is_admin(), &id).await?;
    Ok(Reply::data(ItemData { item: item.into() }))
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<NewsForm>,
) -> Answer<ItemData> {
    let item = news::create(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::data(ItemData { item: item.into() })
        .with_message(news::CREATED)
        .created())
}

async fn update(
    State(state): State<AppState>,
    Segments(id): Segments<String>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<NewsPatch>,
) -> Answer<ItemData> {
    let item = news::update(&state, &viewer, &id, form, &caller.client).await?;
    Ok(Reply::data(ItemData { item: item.into() }).with_message(news::UPDATED))
}

async fn remove(
    State(state): State<AppState>,
    Segments(id): Segments<String>,
    caller: Caller,
    viewer: Viewer,
) -> Answer {
    news::delete(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(news::DELETED))
}
