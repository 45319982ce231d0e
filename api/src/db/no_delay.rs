//! `TCP_NODELAY` on the pool's PostgreSQL connections, which sqlx 0.9.0 no longer sets.

/// Sends each PostgreSQL statement as soon as it is written (`TCP_NODELAY`), as libpq does.
///
/// sqlx 0.9.0 stopped setting it (github.com/transact-rs/sqlx/issues/4335, fixed after 0.9.0).
/// Without it a statement written in two pieces waits for the server to acknowledge the first
/// before the second leaves, and the server delays that acknowledgement by 40 ms (Linux): over
/// TLS that is any statement beyond one 16 KiB record, such as the token endpoint's insert of
/// 32 exchanges' tokens, whose groups took 45 ms instead of 1 at 64 connections.
///
/// sqlx does not hand out its socket, so the server names the ports of both ends, and the
/// process's socket between those ports gets the option. A connection through a Unix socket
/// (no port) has no delay to lose; one through a proxy finds no socket and keeps sqlx's.
/// Remove this once sqlx sets the option again.
pub(super) async fn no_delay(conn: &mut sea_orm::sqlx::PgConnection) -> Result<(), sea_orm::sqlx::Error> {
    let (ours, theirs): (Option<i32>, Option<i32>) =
        sea_orm::sqlx::query_as("SELECT inet_client_port(), inet_server_port()")
            .fetch_one(&mut *conn)
            .await?;
    let port = |port: Option<i32>| port.and_then(|port| u16::try_from(port).ok());
    if let (Some(ours), Some(theirs)) = (port(ours), port(theirs)) {
        set_no_delay(ours, theirs);
    }
    Ok(())
}

/// Sets `TCP_NODELAY` on this process's TCP socket from local port `ours` to port `theirs`, if
/// there is one.
#[cfg(target_os = "linux")]
fn set_no_delay(ours: u16, theirs: u16) {
    use std::{mem::ManuallyDrop, net::TcpStream, os::fd::FromRawFd};

    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    for fd in fds
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
    {
        // SAFETY: the stream is never dropped, so the descriptor is never closed here; asking a
        // descriptor that is not a TCP socket (or one closed meanwhile) for its address fails,
        // and one reused meanwhile by another socket has another local port.
        let socket = ManuallyDrop::new(unsafe { TcpStream::from_raw_fd(fd) });
        if socket.local_addr().is_ok_and(|local| local.port() == ours)
            && socket.peer_addr().is_ok_and(|peer| peer.port() == theirs)
        {
            if let Err(err) = socket.set_nodelay(true) {
                tracing::warn!("could not send PostgreSQL statements without delay: {err}");
            }
            return;
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn set_no_delay(_ours: u16, _theirs: u16) {}
