//! Connections as an attacker holds them: headers sent a byte at a time or not at all, idle
//! keep-alive connections, and more connections than the server will serve at once. Raw TCP,
//! so nothing between the test and the server finishes a request for it.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::helpers::{Backend, TestApp};

const HEALTHZ: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n";

async fn connect(app: &TestApp) -> TcpStream {
    let address = app.address.trim_start_matches("http://");
    TcpStream::connect(address).await.expect("connect")
}

/// What the server sends before `limit`: `None` when it sends nothing and keeps the connection
/// open, `Some(bytes)` when it answers or closes it (`Some` of nothing: closed).
async fn read_within(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut buffer = vec![0; 4096];
    match tokio::time::timeout(limit, stream.read(&mut buffer)).await {
        Err(_) => None,
        Ok(Ok(n)) => Some(buffer[..n].to_vec()),
        Ok(Err(_)) => Some(Vec::new()),
    }
}

/// Reads the server's answer to a request sent on `stream`, and checks it is a 200.
async fn assert_ok(stream: &mut TcpStream, what: &str) {
    let answer = read_within(stream, Duration::from_secs(5))
        .await
        .unwrap_or_default();
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{what}: {}",
        String::from_utf8_lossy(&answer)
    );
}

/// Sends `bytes` one at a time, `gap` apart, while the server keeps the connection; whether
/// it was all sent.
async fn trickle(stream: &mut TcpStream, bytes: &[u8], gap: Duration) -> bool {
    for byte in bytes {
        tokio::time::sleep(gap).await;
        if stream.write_all(&[*byte]).await.is_err() {
            return false;
        }
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_slow_with_its_headers_or_idle_is_disconnected_and_a_prompt_one_is_served() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("HEADER_READ_TIMEOUT", "1s")
        .start()
        .await;
    let started = Instant::now();
    let mut silent = connect(&app).await;
    let mut idle_after_a_request = connect(&app).await;
    idle_after_a_request.write_all(HEALTHZ).await.unwrap();
    assert_ok(&mut idle_after_a_request, "idle after a request").await;
    // A byte every 100 ms: each one arrives in time, the headers never do.
    let mut trickling = connect(&app).await;
    let endless = [
        b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".as_slice(),
        &[b'a'; 100],
    ]
    .concat();
    let sent_it_all = trickle(&mut trickling, &endless, Duration::from_millis(100)).await;
    assert!(
        !sent_it_all,
        "a client trickling its headers for 10 s was still connected"
    );
    assert_eq!(
        read_within(&mut trickling, Duration::from_secs(2)).await,
        Some(Vec::new()),
        "closed without an answer"
    );
    for (name, stream) in [("silent", &mut silent), ("idle", &mut idle_after_a_request)] {
        assert_eq!(
            read_within(stream, Duration::from_secs(2)).await,
            Some(Vec::new()),
            "the {name} connection is closed"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "closed after {:?}",
        started.elapsed()
    );

    // Each request on a connection gets the whole limit: three, 600 ms apart, are all answered.
    let mut unhurried = connect(&app).await;
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(600)).await;
        unhurried.write_all(HEALTHZ).await.unwrap();
        assert_ok(&mut unhurried, "an unhurried request").await;
    }

    // Headers that take most of the limit still arrive in time and are answered.
    let mut slow_but_in_time = connect(&app).await;
    assert!(trickle(&mut slow_but_in_time, HEALTHZ, Duration::from_millis(10)).await);
    assert_ok(&mut slow_but_in_time, "slow but in time").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_connection_cap_a_client_waits_until_one_closes() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("MAX_CONNECTIONS", "2")
        .start()
        .await;
    let first = connect(&app).await;
    let mut second = connect(&app).await;
    second.write_all(HEALTHZ).await.unwrap();
    assert_ok(&mut second, "the second connection is served").await;

    let mut third = connect(&app).await;
    third.write_all(HEALTHZ).await.unwrap();
    assert_eq!(
        read_within(&mut third, Duration::from_millis(1500)).await,
        None,
        "a third connection waits while two are open"
    );
    drop(first);
    assert_ok(&mut third, "served once one closed").await;
}

/// The head of a POST to `path` declaring `length` bytes of JSON body, and `body` (what of it
/// is sent).
fn post_head(path: &str, length: usize, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{body}"
    )
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_declared_past_the_limit_is_refused_at_once_in_each_clients_shape() {
    let app = TestApp::builder(Backend::Sqlite).start().await;
    for (path, shape) in [
        ("/api/auth/login", "\"code\":\"PAYLOAD_TOO_LARGE\""),
        ("/api/graphql", "\"errors\":[{"),
        ("/oauth2/token", "\"error\":\"invalid_request\""),
    ] {
        let mut stream = connect(&app).await;
        stream
            .write_all(&post_head(path, 100_000, "{\"em"))
            .await
            .unwrap();
        // Answered before the rest is sent, not when 64 KiB have come or the time limit passed.
        let answer = read_within(&mut stream, Duration::from_secs(5))
            .await
            .expect("an answer at once");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(
            answer.contains("The request body is too large (64 KiB at most)"),
            "{path}: {answer}"
        );
        assert!(answer.contains(shape), "{path}: {answer}");
        // Its body unread, the connection is not one to send another request on.
        assert!(
            answer.to_ascii_lowercase().contains("connection: close"),
            "{path}: {answer}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_stops_arriving_is_the_clients_delay_408_not_the_services_503() {
    let app = TestApp::builder(Backend::Sqlite).start().await;
    let started = Instant::now();
    let answers = futures::future::join_all(["/api/auth/login", "/api/graphql"].map(|path| {
        let app = &app;
        async move {
            let mut stream = connect(app).await;
            stream.write_all(&post_head(path, 50, "{\"em")).await.unwrap();
            let answer = read_within(&mut stream, Duration::from_secs(45))
                .await
                .expect("an answer");
            // And the connection closes: the handler waiting for the body was told it will
            // not come (it once held the socket open for as long as the client stayed silent).
            let after = read_within(&mut stream, Duration::from_secs(5)).await;
            (path, String::from_utf8_lossy(&answer).into_owned(), after)
        }
    }))
    .await;
    for (path, answer, after) in answers {
        assert_eq!(
            after,
            Some(Vec::new()),
            "{path}: the server closes the connection"
        );
        assert!(answer.starts_with("HTTP/1.1 408"), "{path}: {answer}");
        assert!(
            answer.contains("The request body did not arrive in time"),
            "{path}: {answer}"
        );
    }
    eprintln!("stalled bodies answered after {:?}", started.elapsed());
    // The server itself was never the one waiting: a request with its whole body is served.
    let mut stream = connect(&app).await;
    let body = r#"{"email":"nobody@example.com","password":"wrong-one-1"}"#;
    stream
        .write_all(&post_head("/api/auth/login", body.len(), body))
        .await
        .unwrap();
    let answer = read_within(&mut stream, Duration::from_secs(5))
        .await
        .unwrap_or_default();
    assert!(
        answer.starts_with(b"HTTP/1.1 401"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
}
