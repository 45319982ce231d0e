//! Talent Suite's server: the account system and news feed behind the Hire, Campus and
//! Career platforms, as GraphQL with a REST adapter, serving the built React site.
//!
//! Requests flow `http` → `rest` or `graphql` (two thin skins) → the domain (`accounts`, `news`,
//! `google`, `oidc`, `audit`, `mail`) → `entity`. The domain imports neither axum nor
//! async-graphql.

/// The domain of accounts: fields, passwords, sessions and every account flow.
pub mod accounts;
/// The admin console: people, their accounts, the audit log and its export, the seats.
pub mod admin;
/// The application: build, bind, run until stopped.
pub mod app;
/// The audit log of authentication events.
pub mod audit;
/// One statement for many callers: padded chunks, and the queue a task drains.
pub mod batch;
/// The command line: serve, migrate, export-schema, create-admin.
pub mod cli;
/// Who is calling: address, user agent, device cookie (read from requests in `http::caller`).
pub mod client;
/// Configuration read and validated once at start-up.
pub mod config;
/// What the domain works with: database, settings and shared services.
pub mod context;
/// Connecting to SQLite or PostgreSQL, and migrating.
pub mod db;
/// The one error type of the domain and the API codes it maps to (`http::error` maps codes to
/// statuses).
pub mod error;
/// Google identity: ID tokens and the popup's code flow.
pub mod google;
/// The GraphQL schema, one part per feature.
pub mod graphql;
/// Escaping for the HTML the server writes itself.
pub mod html;
/// The router and the middleware around it; the site, health and metrics.
pub mod http;
/// Housekeeping of expired rows.
pub mod janitor;
/// Mail templates, the outbox and the SMTP worker.
pub mod mail;
/// The news feed.
pub mod news;
/// Talent Suite as an OpenID Provider for the platforms and partner applications.
pub mod oidc;
/// Organizations: Hire teams and Campus institutes, their members and invitations.
pub mod organizations;
/// The limit and cursor of a paged list, checked.
pub mod paging;
/// A field of a partial update: unchanged, cleared or set.
pub mod patch;
/// Sign-in providers beyond Google's own calls: LinkedIn, Microsoft, GitHub; their popup flow,
/// tickets and key sets.
pub mod providers;
/// Limits shared by every instance through the database.
pub mod rate_limit;
/// The REST adapter: typed handlers over the same domain functions as the GraphQL resolvers.
pub mod rest;
/// What every request can reach.
pub mod state;
/// Structured logs.
pub mod telemetry;
#[cfg(test)]
mod test_support;
