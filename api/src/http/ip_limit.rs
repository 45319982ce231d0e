//! Per-address limits on the API, per route: generous, since a campus network puts thousands
//! of people behind one address. The limits that bite are per email and per account, in the
//! database. This one guards each instance against a single noisy client.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Router,
    extract::{ConnectInfo, MatchedPath},
    http::Request,
    response::IntoResponse,
};
use tower_governor::{
    GovernorError, GovernorLayer, governor::GovernorConfigBuilder, key_extractor::KeyExtractor,
};

use crate::{client::ClientInfo, error::Error, http::error::ErrorResponse};

/// The window the configured count applies to.
const WINDOW: Duration = Duration::from_secs(600);

/// Keys a request by its client address (see `client`: behind trusted proxies, the forwarded
/// one; IPv6 by its /64) and the route it matched.
#[derive(Clone, Copy, Debug)]
struct AddressAndRoute;

impl KeyExtractor for AddressAndRoute {
    type Key = (String, String);

    fn extract<T>(&self, request: &Request<T>) -> Result<Self::Key, GovernorError> {
        let ip = request
            .extensions()
            .get::<ClientInfo>()
            .filter(|client| client.ip.is_some())
            .map(ClientInfo::ip_key)
            .or_else(|| {
                request
                    .extensions()
                    .get::<ConnectInfo<SocketAddr>>()
                    .map(|info| info.0.ip().to_string())
            })
            .ok_or(GovernorError::UnableToExtractKey)?;
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
        Ok((ip, route))
    }
}

/// Limits each address to `per_window` requests per route per ten minutes (0: no limit).
pub fn apply(router: Router<crate::state::AppState>, per_window: u32) -> Router<crate::state::AppState> {
    if per_window == 0 {
        return router;
    }
    let config = GovernorConfigBuilder::default()
        .key_extractor(AddressAndRoute)
        .period(WINDOW / per_window)
        .burst_size(per_window)
        .finish()
        .expect("a positive period and burst");
    let config = Arc::new(config);
    let limiter = config.limiter().clone();
    // Forget addresses that have been quiet, so the table does not grow without bound.
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            limiter.retain_recent();
        }
    });
    let layer = GovernorLayer::new(config).error_handler(|error| match error {
        GovernorError::TooManyRequests { wait_time, .. } => ErrorResponse::from(Error::RateLimited {
            message: "Too many requests from this address. Please slow down.".to_owned(),
            retry_after_secs: wait_time.max(1),
        })
        .into_response(),
        // No peer address: only when served without connection info, which `app` never does.
        _ => ErrorResponse::from(Error::Unavailable).into_response(),
    });
    router.route_layer(layer)
}
