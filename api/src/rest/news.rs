//! `/news` and `/news/{id}`.

use axum::{
    Extension, Router,
    extract::{Path, Query},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Deserialize;
use serde_json::json;

use super::operation::{Body, Operation, Shape, json_object, keep, run};
use crate::{client::Caller, graphql::AppSchema, state::AppState};

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
    LIST,
    StatusCode::OK,
    Shape::Payload,
    "query($first: Int, $after: String) { result: news(first: $first, after: $after) { items: nodes { ...NewsFields } nextCursor } }"
);
news_operation!(
    ITEM,
    StatusCode::OK,
    Shape::Wrap("item"),
    "query($id: ID!) { result: newsItem(id: $id) { ...NewsFields } }"
);
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

async fn list(
    Extension(schema): Extension<AppSchema>,
    caller: Caller,
    params: Result<Query<ListParams>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(params)) = params else {
        return run(&schema, &caller, &LIST, json!({ "first": 0 })).await;
    };
    // A limit that is not a number is passed as 0, so the domain answers with its own text.
    let first = params.limit.map(|l| l.trim().parse::<i32>().unwrap_or(0));
    run(
        &schema,
        &caller,
        &LIST,
        json!({ "first": first, "after": params.cursor }),
    )
    .await
}

async fn item(Extension(schema): Extension<AppSchema>, Path(id): Path<String>, caller: Caller) -> Response {
    run(&schema, &caller, &ITEM, json!({ "id": id })).await
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
