//! OpenID Connect Back-Channel Logout 1.0: when a Talent Suite session ends (logout, a
//! signed-out device, a password change or reset, a deleted account), every client that
//! registered a `backchannel_logout_uri` and holds tokens of that session gets a logout token.
//!
//! Notices are written in the same transaction as the end of the session, then delivered by a
//! worker with retries and backoff, so a client that is down gets its notice when it returns.
//! The logout token is signed at delivery, so a late notice is still fresh.

use std::{sync::Arc, time::Duration as StdDuration};

use chrono::{Duration, Utc};
use entity::{backchannel_logouts, oauth_clients, oauth_tokens};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QuerySelect, Set, sea_query::Expr,
};
use serde::Serialize;
use tokio::sync::{Notify, watch};
use uuid::Uuid;

use super::keys::{self, Vault};
use crate::{
    context::Context,
    error::{Error, Result},
};

const POLL: StdDuration = StdDuration::from_secs(2);
const SEND_TIMEOUT: StdDuration = StdDuration::from_secs(5);
/// A notice is given up after this many failed deliveries (about three days of backoff).
const MAX_ATTEMPTS: i32 = 30;
const EVENT: &str = "http://schemas.openid.net/event/backchannel-logout";

/// Queues notices for the clients of the sessions matched by `sessions` (a condition on
/// `oauth_tokens`, e.g. one session id, or every session of a user but one). Call it before
/// the sessions are deleted: their tokens go with them.
///
/// # Errors
/// On a database failure.
pub async fn sessions_ending(db: &impl ConnectionTrait, sessions: Condition) -> Result<u64> {
    let holders: Vec<(String, Uuid, Uuid)> = oauth_tokens::Entity::find()
        .select_only()
        .column(oauth_tokens::Column::ClientId)
        .column(oauth_tokens::Column::UserId)
        .column(oauth_tokens::Column::SessionId)
        .distinct()
        .filter(sessions)
        .into_tuple()
        .all(db)
        .await?;
    if holders.is_empty() {
        return Ok(0);
    }
    let listening: Vec<String> = oauth_clients::Entity::find()
        .select_only()
        .column(oauth_clients::Column::ClientId)
        .filter(oauth_clients::Column::BackchannelLogoutUri.is_not_null())
        .filter(oauth_clients::Column::ClientId.is_in(holders.iter().map(|(c, _, _)| c.clone())))
        .into_tuple()
        .all(db)
        .await?;
    let now = Utc::now();
    let mut queued = 0;
    for (client_id, user_id, session_id) in holders {
        if !listening.contains(&client_id) {
            continue;
        }
        backchannel_logouts::ActiveModel {
            id: Set(Uuid::new_v4()),
            client_id: Set(client_id),
            user_id: Set(user_id),
            session_id: Set(session_id),
            attempts: Set(0),
            next_attempt_at: Set(now),
            locked_until: Set(None),
            last_error: Set(None),
            created_at: Set(now),
        }
        .insert(db)
        .await?;
        queued += 1;
    }
    Ok(queued)
}

/// The notices for one session.
pub fn session(session_id: Uuid) -> Condition {
    Condition::all().add(oauth_tokens::Column::SessionId.eq(session_id))
}

/// The notices for every session of a user, or every one but `keep`.
pub fn user_sessions(user_id: Uuid, keep: Option<Uuid>) -> Condition {
    let mut condition = Condition::all().add(oauth_tokens::Column::UserId.eq(user_id));
    if let Some(keep) = keep {
        condition = condition.add(oauth_tokens::Column::SessionId.ne(keep));
    }
    condition
}

/// No redirects, and no proxy from the environment: a proxy would resolve the host itself,
/// after the check of the addresses it resolves to.
fn http_client() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .timeout(SEND_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
}

/// A client that can reach `uri`'s host only at the public addresses it resolves to now.
async fn public_client(uri: &str) -> std::result::Result<reqwest::Client, String> {
    let url = url::Url::parse(uri).map_err(|e| e.to_string())?;
    let host = url
        .host_str()
        .ok_or("no host")?
        .trim_matches(['[', ']'])
        .to_owned();
    let port = url.port_or_known_default().ok_or("no port")?;
    let addresses: Vec<std::net::SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
        .await
        .map_err(|e| format!("{host} did not resolve: {e}"))?
        .collect();
    if addresses.is_empty() || addresses.iter().any(|a| !super::clients::is_public(a.ip())) {
        return Err(format!(
            "refused: {host} resolves to a loopback, private or link-local address"
        ));
    }
    http_client()
        .resolve_to_addrs(&host, &addresses)
        .build()
        .map_err(|e| e.to_string())
}

#[derive(Serialize)]
struct LogoutClaims<'a> {
    iss: &'a str,
    aud: &'a str,
    iat: i64,
    exp: i64,
    jti: String,
    sub: String,
    sid: String,
    events: serde_json::Value,
}

/// Delivers queued notices until stopped.
pub struct Worker {
    db: DatabaseConnection,
    issuer: String,
    ready: Arc<Notify>,
    vault: Arc<Vault>,
    /// `APP_ENV=local`: notices may go to this machine and private networks.
    local: bool,
    http: reqwest::Client,
}

impl Worker {
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new(ctx: &Context) -> anyhow::Result<Self> {
        Ok(Self {
            db: ctx.db.clone(),
            issuer: ctx.config.platforms.main.clone(),
            ready: ctx.backchannel_ready.clone(),
            vault: ctx.vault.clone(),
            local: ctx.config.env.is_local(),
            http: http_client().build()?,
        })
    }

    pub async fn run(self, mut stop: watch::Receiver<bool>) {
        loop {
            if *stop.borrow() {
                return;
            }
            if let Err(err) = self.deliver_due().await {
                tracing::warn!(error = %err, "back-channel logout delivery pass failed");
            }
            tokio::select! {
                () = self.ready.notified() => {}
                () = tokio::time::sleep(POLL) => {}
                _ = stop.changed() => {}
            }
        }
    }

    async fn deliver_due(&self) -> Result<()> {
        let now = Utc::now();
        let due = backchannel_logouts::Entity::find()
            .filter(backchannel_logouts::Column::NextAttemptAt.lte(now))
            .filter(
                Condition::any()
                    .add(backchannel_logouts::Column::LockedUntil.is_null())
                    .add(backchannel_logouts::Column::LockedUntil.lt(now)),
            )
            .limit(50)
            .all(&self.db)
            .await?;
        for notice in due {
            // Claim it, so another instance does not send it at the same time.
            let claimed = backchannel_logouts::Entity::update_many()
                .col_expr(
                    backchannel_logouts::Column::LockedUntil,
                    Expr::value(Some(now + Duration::seconds(30))),
                )
                .filter(backchannel_logouts::Column::Id.eq(notice.id))
                .filter(
                    Condition::any()
                        .add(backchannel_logouts::Column::LockedUntil.is_null())
                        .add(backchannel_logouts::Column::LockedUntil.lt(now)),
                )
                .exec(&self.db)
                .await?;
            if claimed.rows_affected == 1 {
                self.deliver(notice).await?;
            }
        }
        Ok(())
    }

    async fn deliver(&self, notice: backchannel_logouts::Model) -> Result<()> {
        let outcome = self.send(&notice).await;
        match outcome {
            Ok(()) => {
                backchannel_logouts::Entity::delete_by_id(notice.id)
                    .exec(&self.db)
                    .await?;
            }
            Err(why) if notice.attempts + 1 >= MAX_ATTEMPTS => {
                tracing::warn!(client_id = %notice.client_id, error = %why, "back-channel logout given up");
                backchannel_logouts::Entity::delete_by_id(notice.id)
                    .exec(&self.db)
                    .await?;
            }
            Err(why) => {
                let attempts = notice.attempts + 1;
                let wait = Duration::seconds(2_i64.pow(u32::try_from(attempts.min(13)).unwrap_or(13)));
                let mut row: backchannel_logouts::ActiveModel = notice.into();
                row.attempts = Set(attempts);
                row.next_attempt_at = Set(Utc::now() + wait.min(Duration::hours(2)));
                row.locked_until = Set(None);
                row.last_error = Set(Some(why.chars().take(500).collect()));
                row.update(&self.db).await?;
            }
        }
        Ok(())
    }

    async fn send(&self, notice: &backchannel_logouts::Model) -> std::result::Result<(), String> {
        let client = oauth_clients::Entity::find_by_id(notice.client_id.clone())
            .one(&self.db)
            .await
            .map_err(|e| e.to_string())?;
        let Some(uri) = client.and_then(|c| c.backchannel_logout_uri) else {
            return Ok(());
        };
        let token = self.logout_token(notice).await.map_err(|e| e.to_string())?;
        let pinned;
        let http = if self.local {
            &self.http
        } else {
            // Resolved here and pinned for this request, so a name that pointed somewhere
            // public at registration cannot be turned to a private address now.
            pinned = public_client(&uri).await?;
            &pinned
        };
        let response = http
            .post(&uri)
            .form(&[("logout_token", token)])
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(format!("{uri} answered {}", response.status()))
        }
    }

    async fn logout_token(&self, notice: &backchannel_logouts::Model) -> Result<String> {
        let (kid, pem) = keys::current_rsa_pem(&self.db, &self.vault).await?;
        let now = Utc::now().timestamp();
        let claims = LogoutClaims {
            iss: &self.issuer,
            aud: &notice.client_id,
            iat: now,
            exp: now + 120,
            jti: Uuid::new_v4().to_string(),
            sub: notice.user_id.to_string(),
            sid: notice.session_id.to_string(),
            events: serde_json::json!({ EVENT: {} }),
        };
        let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256);
        header.kid = Some(kid);
        header.typ = Some("logout+jwt".to_owned());
        let signing = jsonwebtoken::EncodingKey::from_rsa_pem(pem.as_bytes()).map_err(Error::internal)?;
        jsonwebtoken::encode(&header, &claims, &signing).map_err(Error::internal)
    }
}
