//! Structured logs: JSON outside local, readable lines under local; `RUST_LOG` filters.

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,sea_orm=warn,tower_http=info"));
    let registry = tracing_subscriber::registry().with(filter);
    let result = if json {
        registry.with(fmt::layer().json().flatten_event(true)).try_init()
    } else {
        registry.with(fmt::layer().compact()).try_init()
    };
    // Already initialised (tests call this more than once): keep the first.
    drop(result);
}
