//! `/news` and `/news/{id}`.

use axum::{
    Extension, Router,
    body::Bytes,
    extract::{Path, Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;
use serde_json::json;

use super::{
    envelope::{ErrorResponse, data, data_json},
    operation::{Body, Operation, Shape, json_object, keep, run},
};
use crate::{
    accounts::sessions,
    client::Caller,
    error::Error,
    graphql::{AppSchema, news::NewsItem},
    news,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/news", get(list).post(create))
        .route("/news/{id}", get(item).put(update).delete(remove))
}

const NEWS_FIELDS: &str = "fragment NewsFields on NewsItem { id title summary body imageUrl published publishedAt author { id name } createdAt updatedAt }";

macro_rules! news_operation {
    ($name:ident, $status:expr, $shape:expr, $doc:expr) => {
        const $name: Operation = Operation {
            document: const_format::concatcp!($doc, " ", NEWS_FIELDS),
            shape: $shape,
            status: $status,
        };
    };
}

news_operation!(
    CREATE,
    StatusCode::CREATED,
    Shape::Payload,
    "mutation($input: CreateNewsInput!) { result: createNews(input: $input) { message item { ...NewsFields } } }"
);
news_operation!(
    UPDATE,
    StatusCode::OK,
    Shape::Payload,
    "mutation($id: ID!, $input: UpdateNewsInput!) { result: updateNews(id: $id, input: $input) { message item { ...NewsFields } } }"
);

const DELETE: Operation = Operation {
    document: "mutation($id: ID!) { result: deleteNews(id: $id) { message } }",
    shape: Shape::Payload,
    status: StatusCode::OK,
};

const FIELDS: [(&str, Option<&[&str]>); 5] = [
    ("title", None),
    ("summary", None),
    ("body", None),
    ("imageUrl", None),
    ("published", None),
];

#[derive(Deserialize)]
struct ListParams {
    limit: Option<String>,
    cursor: Option<String>,
}

/// The feed and its items are read far more than anything else is written: they skip
/// GraphQL and call what the `news` and `newsItem` resolvers call, for the same JSON.
async fn list(
    State(state): State<AppState>,
    caller: Caller,
    params: Result<Query<ListParams>, axum::extract::rejection::QueryRejection>,
) -> Response {
    // A limit that is not a number is passed as 0, so the domain answers with its own text.
    let (first, after) = match params {
        Ok(Query(params)) => (
            params.limit.map(|l| l.trim().parse::<i32>().unwrap_or(0)),
            params.cursor,
        ),
        Err(_) => (Some(0), None),
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
                return data(&feed);
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

async fn item(State(state): State<AppState>, Path(id): Path<String>, caller: Caller) -> Response {
    let item = async {
        let is_admin = sessions::optional(&state, caller.token.as_deref())
            .await?
            .is_some_and(|viewer| viewer.is_admin());
        news::get(&state, is_admin, &id).await
    };
    match item.await {
        Ok(item) => data(&ItemData {
            item: NewsItem::from(item),
        }),
        Err(err) => ErrorResponse::from(err).into_response(),
    }
}

async fn create(Extension(schema): Extension<AppSchema>, caller: Caller, body: Body) -> Response {
    match json_object(body) {
        Ok(mut input) => {
            keep(&mut input, &FIELDS);
            run(&schema, &caller, &CREATE, json!({ "input": input })).await
        }
        Err(err) => err.into_response(),
    }
}

async fn update(
    Extension(schema): Extension<AppSchema>,
    Path(id): Path<String>,
    caller: Caller,
    body: Body,
) -> Response {
    match json_object(body) {
        Ok(mut input) => {
            keep(&mut input, &FIELDS);
            run(&schema, &caller, &UPDATE, json!({ "id": id, "input": input })).await
        }
        Err(err) => err.into_response(),
    }
}

async fn remove(Extension(schema): Extension<AppSchema>, Path(id): Path<String>, caller: Caller) -> Response {
    run(&schema, &caller, &DELETE, json!({ "id": id })).await
}
