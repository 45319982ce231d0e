//! News queries and mutations. The feed is a cursor connection for integrators.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};

use serde::Serialize;

use super::inputs::{CreateNewsInput, UpdateNewsInput};
use super::{
    context,
    errors::IntoGql,
    types::{MessagePayload, rfc3339, rfc3339_opt},
};
use crate::news::{self, Cursor, Item};

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct Author {
    pub id: ID,
    pub name: String,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct NewsItem {
    pub id: ID,
    pub title: String,
    pub summary: String,
    pub body: String,
    pub image_url: Option<String>,
    pub published: bool,
    /// Set when the item is first published.
    #[serde(serialize_with = "rfc3339_opt")]
    pub published_at: Option<DateTime<Utc>>,
    /// Null once the author's account is deleted.
    pub author: Option<Author>,
    #[serde(serialize_with = "rfc3339")]
    pub created_at: DateTime<Utc>,
    #[serde(serialize_with = "rfc3339")]
    pub updated_at: DateTime<Utc>,
}

impl From<Item> for NewsItem {
    fn from((item, author): Item) -> Self {
        Self {
            id: ID(item.id.to_string()),
            title: item.title,
            summary: item.summary,
            body: item.body,
            image_url: item.image_url,
            published: item.published,
            published_at: item.published_at,
            author: author.map(|a| Author {
                id: ID(a.id.to_string()),
                name: a.name,
            }),
            created_at: item.created_at,
            updated_at: item.updated_at,
        }
    }
}

#[derive(SimpleObject, Clone, Debug)]
pub struct NewsEdge {
    pub cursor: String,
    pub node: NewsItem,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct PageInfo {
    pub has_next_page: bool,
    pub end_cursor: Option<String>,
}

/// A page of the feed, newest first.
#[derive(SimpleObject, Clone, Debug)]
pub struct NewsConnection {
    pub edges: Vec<NewsEdge>,
    pub nodes: Vec<NewsItem>,
    pub page_info: PageInfo,
    /// Pass as `after` for the next page; null at the end.
    pub next_cursor: Option<String>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct NewsPayload {
    pub message: String,
    pub item: NewsItem,
}

#[derive(Default)]
pub struct NewsQuery;

#[Object]
impl NewsQuery {
    /// Published items, newest first (drafts too for admins). `first`: 1-50, default 20.
    #[graphql(complexity = "super::limits::page_cost(first, child_complexity)")]
    async fn news(
        &self,
        ctx: &Context<'_>,
        first: Option<i32>,
        after: Option<String>,
    ) -> async_graphql::Result<NewsConnection> {
        let (state, meta) = context(ctx);
        let is_admin = meta.is_admin(state).await.gql()?;
        let page = news::list(state, is_admin, first, after.as_deref())
            .await
            .gql_page()?;
        let edges: Vec<NewsEdge> = page
            .items
            .into_iter()
            .map(|item| NewsEdge {
                cursor: Cursor::of(&item.0).encode(),
                node: item.into(),
            })
            .collect();
        Ok(NewsConnection {
            nodes: edges.iter().map(|e| e.node.clone()).collect(),
            page_info: PageInfo {
                has_next_page: page.next_cursor.is_some(),
                end_cursor: edges.last().map(|e| e.cursor.clone()),
            },
            next_cursor: page.next_cursor,
            edges,
        })
    }

    /// One item; a draft only for admins.
    async fn news_item(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<NewsItem> {
        let (state, meta) = context(ctx);
        let is_admin = meta.is_admin(state).await.gql()?;
        Ok(news::get(state, is_admin, &id).await.gql()?.into())
    }
}

#[derive(Default)]
pub struct NewsMutation;

#[Object]
impl NewsMutation {
    /// Admins only.
    async fn create_news(
        &self,
        ctx: &Context<'_>,
        input: CreateNewsInput,
    ) -> async_graphql::Result<NewsPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let item = news::create(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(NewsPayload {
            message: news::CREATED.to_owned(),
            item: item.into(),
        })
    }

    /// Admins only. Fields left out stay as they are.
    async fn update_news(
        &self,
        ctx: &Context<'_>,
        id: ID,
        input: UpdateNewsInput,
    ) -> async_graphql::Result<NewsPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let item = news::update(state, &viewer, &id, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(NewsPayload {
            message: news::UPDATED.to_owned(),
            item: item.into(),
        })
    }

    /// Admins only.
    async fn delete_news(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        news::delete(state, &viewer, &id, &meta.client).await.gql()?;
        Ok(MessagePayload::new(news::DELETED))
    }
}
