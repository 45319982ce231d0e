//! Accepting connections and serving HTTP/1.1 on them, with two limits that a server on the
//! open internet needs and `axum::serve` cannot be given:
//!
//! - **A time limit on a request's headers** ([`Config::header_read_timeout`], 65 s by default),
//!   counted from when the server starts waiting for them. A client that opens connections and
//!   sends its headers a byte at a time, or nothing at all, or keeps a connection idle between
//!   requests, has the connection closed when it runs out; without it each such connection was
//!   held for ever, and a few thousand of them used up the process's open files. A request's
//!   body and its handling are bounded by the request time limit (`http::middleware`).
//! - **A cap on connections served at once** ([`Config::max_connections`]). Past it the server
//!   stops accepting until one closes, and the next waits in the kernel's queue; it never runs
//!   out of file descriptors for its database, its files and its mail. By default the cap is
//!   the open-file limit less [`RESERVED_FILES`].
//!
//! A stop ([`serve`]'s `shutdown`) stops accepting, lets each connection finish the request
//! it is serving, and returns when every connection has closed.

use std::{
    io,
    net::SocketAddr,
    pin::{Pin, pin},
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll},
    time::{Duration, Instant},
};

use axum::{Router, body::Body, extract::ConnectInfo};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::{rt::TokioIo, service::TowerToHyperService};
use tokio::{
    net::TcpListener,
    sync::{Semaphore, watch},
    time::Sleep,
};
use tower::ServiceExt;

use crate::config::Config;

/// File descriptors kept for everything but connections: the database's (a pool of 20 and
/// SQLite's files), the mail relay's, the site's files being sent, the logs.
pub const RESERVED_FILES: usize = 512;

/// The fewest connections the default cap allows, whatever the open-file limit says.
const MIN_CONNECTIONS: usize = 64;

/// How long accepting pauses after the kernel refused a connection for want of resources
/// (open files, memory), rather than retrying at once and spinning.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Raises the process's soft open-file limit to its hard limit, as Go's runtime does for every
/// program, and returns the new soft limit. systemd starts a service at a soft limit of 1,024
/// (with a hard one far above): a server left there is capped near a thousand connections.
///
/// # Errors
/// When the limit cannot be read or set.
pub fn raise_open_file_limit() -> io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

/// The default cap on connections: the soft open-file limit less [`RESERVED_FILES`].
fn default_max_connections() -> usize {
    let soft = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
    usize::try_from(soft)
        .unwrap_or(usize::MAX)
        .saturating_sub(RESERVED_FILES)
        .max(MIN_CONNECTIONS)
}

/// Serves `router` on `listener` until `shutdown` resolves, then until every connection has
/// finished the request in hand and closed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let max_connections = config.max_connections.unwrap_or_else(default_max_connections);
    tracing::debug!(max_connections, header_read_timeout = ?config.header_read_timeout, "serving");
    let mut http = http1::Builder::new();
    http.header_read_timeout(config.header_read_timeout);
    let slots = Arc::new(Semaphore::new(max_connections));
    // Each connection holds a receiver: `closed()` resolves when the last one has gone.
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = Arc::clone(&slots).acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    refused(&err).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // What `into_make_service_with_connect_info` did: the peer's address on every request.
        let service = router
            .clone()
            .map_request(move |request: hyper::Request<Incoming>| {
                let mut request = request.map(Body::new);
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection = http
            .clone()
            .timer(ConnectionTimer::new())
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let mut connection = pin!(connection);
            tokio::select! {
                served = connection.as_mut() => closed(served, peer),
                _ = stopping.changed() => {
                    // An idle connection closes now; a busy one after its response.
                    connection.as_mut().graceful_shutdown();
                    closed(connection.await, peer);
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(true);
    stop.closed().await;
}

/// A connection's end. Clients hanging up, and the header time limit running out, are the
/// ordinary ends of a connection: they are not logged above debug.
fn closed(served: hyper::Result<()>, peer: SocketAddr) {
    if let Err(err) = served {
        tracing::debug!(%peer, error = %err, "connection closed");
    }
}

/// An accept that failed. A connection reset before it was taken needs nothing; a want of
/// resources (open files, memory) pauses accepting for a moment instead of spinning on it.
async fn refused(err: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        err.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %err, "could not accept a connection");
    tokio::time::sleep(ACCEPT_BACKOFF).await;
}

/// hyper's timer for one connection. hyper asks it for a deadline for each request's headers
/// and drops it once they have arrived. A deadline of its own each time would register a timer
/// in tokio's timer wheel and remove it, under the wheel's lock both ways: 3 % of a session
/// check's throughput and 7 % of `/healthz`'s. So the connection keeps one `Sleep` and moves
/// it later for each request, which tokio does with one atomic update while it is registered.
/// A deadline asked for while the last one is still held gets a `Sleep` of its own.
struct ConnectionTimer(Arc<Mutex<Pin<Box<Sleep>>>>);

impl ConnectionTimer {
    /// Its `Sleep` is set to the first deadline hyper asks for, before it is ever polled.
    fn new() -> Self {
        Self(Arc::new(Mutex::new(Box::pin(tokio::time::sleep_until(
            tokio::time::Instant::now(),
        )))))
    }
}

/// A deadline handed to hyper: the connection's `Sleep`, or one of its own.
enum Deadline {
    Shared(Arc<Mutex<Pin<Box<Sleep>>>>),
    Own(Pin<Box<Sleep>>),
}

impl hyper::rt::Timer for ConnectionTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        self.sleep_until(Instant::now() + duration)
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        let deadline = tokio::time::Instant::from_std(deadline);
        if Arc::strong_count(&self.0) > 1 {
            return Box::pin(Deadline::Own(Box::pin(tokio::time::sleep_until(deadline))));
        }
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
            .reset(deadline);
        Box::pin(Deadline::Shared(Arc::clone(&self.0)))
    }
}

impl Future for Deadline {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match self.get_mut() {
            Self::Own(sleep) => sleep.as_mut().poll(cx),
            Self::Shared(shared) => shared
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .as_mut()
                .poll(cx),
        }
    }
}

impl hyper::rt::Sleep for Deadline {}
