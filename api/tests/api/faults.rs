//! Faults a deployment meets: the process killed mid-write, a graceful stop, the database
//! restarted under load (the mail server gone for a while is in `mail_delivery.rs`). The
//! server runs as its real binary where the fault is the process's own.

use std::{
    collections::HashSet,
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures::future::join_all;
use reqwest::StatusCode;
use sea_orm::{ConnectionTrait, Database, Statement};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, count, json_of};

/// The server binary on a free port, with a local configuration and `DATABASE_URL`.
pub struct ServerProcess {
    child: Child,
    pub address: String,
}

impl ServerProcess {
    pub async fn start(database_url: &str, extra: &[(&str, &str)]) -> Self {
        let port = crate::helpers::port_for_a_child();
        let dir = tempfile::tempdir().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_api"));
        command
            .arg("serve")
            .current_dir(dir.path())
            .env_clear()
            .envs(crate::helpers::LOCAL_ENV)
            .envs([("RATE_LIMIT_PER_IP", "0"), ("RUST_LOG", "error")])
            .env("BIND_ADDR", format!("127.0.0.1:{port}"))
            .env("DATABASE_URL", database_url)
            .envs(extra.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let child = command.spawn().expect("start the server binary");
        let server = Self {
            child,
            address: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !reqwest::get(server.url("/healthz"))
            .await
            .is_ok_and(|r| r.status() == StatusCode::OK)
        {
            assert!(Instant::now() < deadline, "the server did not come up");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        std::mem::forget(dir);
        server
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// Resident memory of the process, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the process to end, at most `limit`.
    fn wait(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn registration(email: &str) -> Value {
    json!({
        "name": "Load Test", "email": email, "countryCode": "+91",
        "phone": "+919876543210", "password": "quietRiver42", "role": "career",
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigkill_during_registrations_loses_no_acknowledged_account_and_half_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = format!("sqlite://{}/crash.db?mode=rwc", dir.path().display());
    let server = ServerProcess::start(&database_url, &[]).await;
    let acknowledged = Arc::new(Mutex::new(Vec::<String>::new()));
    let coded = Arc::new(Mutex::new(Vec::<String>::new()));
    // Whatever fails before the kill is a failure of the server, not of the kill.
    let killed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let failed_before_kill = Arc::new(Mutex::new(Vec::<String>::new()));
    let workers = (0..8).map(|worker| {
        let (acknowledged, coded, base) = (acknowledged.clone(), coded.clone(), server.address.clone());
        let (killed, failed) = (killed.clone(), failed_before_kill.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let give_up = |why: String| {
                if !killed.load(std::sync::atomic::Ordering::SeqCst) {
                    failed.lock().unwrap().push(why);
                }
            };
            for n in 0.. {
                let email = format!("w{worker}-{n}@example.com");
                let response = match client
                    .post(format!("{base}/api/auth/register"))
                    .json(&registration(&email))
                    .send()
                    .await
                {
                    Ok(response) => response,
                    Err(err) => return give_up(format!("register {email}: {err}")),
                };
                if response.status() != StatusCode::CREATED {
                    return give_up(format!("register {email}: {}", response.status()));
                }
                acknowledged.lock().unwrap().push(email.clone());
                let response = match client
                    .post(format!("{base}/api/auth/send-otp-email"))
                    .json(&json!({ "email": email }))
                    .send()
                    .await
                {
                    Ok(response) => response,
                    Err(err) => return give_up(format!("code for {email}: {err}")),
                };
                if response.status() == StatusCode::OK {
                    coded.lock().unwrap().push(email);
                }
                if killed.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
            }
        })
    });
    let load = tokio::spawn(join_all(workers));
    // The kill lands once a few registrations are acknowledged, while eight more are in flight
    // (however slowly a busy machine hashes them).
    let deadline = Instant::now() + Duration::from_secs(60);
    while acknowledged.lock().unwrap().len() < 5
        && failed_before_kill.lock().unwrap().is_empty()
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    killed.store(true, std::sync::atomic::Ordering::SeqCst);
    server.signal("KILL");
    for worker in load.await.expect("the load ran") {
        worker.expect("a worker panicked");
    }
    drop(server);
    let failed = failed_before_kill.lock().unwrap().clone();
    assert!(failed.is_empty(), "requests failed before the kill: {failed:?}");

    let acknowledged = acknowledged.lock().unwrap().clone();
    let coded = coded.lock().unwrap().clone();
    assert!(acknowledged.len() >= 5, "the load ran: {}", acknowledged.len());
    let restarted = ServerProcess::start(&database_url, &[]).await;
    let client = reqwest::Client::new();
    for email in &acknowledged {
        let response = client
            .post(restarted.url("/api/auth/register"))
            .json(&registration(email))
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::CONFLICT,
            "{email} was acknowledged, so it exists"
        );
    }
    let db = Database::connect(&database_url).await.unwrap();
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM audit_events a WHERE a.user_id = u.id AND a.kind = 'registered')").await,
        0,
        "every account has its registration record"
    );
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM email_codes c WHERE NOT EXISTS (SELECT 1 FROM mail_outbox m WHERE m.user_id = c.user_id)").await,
        0,
        "every code has its mail"
    );
    let rows = db
        .query_all_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT recipient FROM mail_outbox WHERE subject <> ''",
        ))
        .await
        .unwrap();
    let mailed: HashSet<String> = rows
        .iter()
        .map(|r| r.try_get_by_index::<String>(0).unwrap())
        .collect();
    for email in &coded {
        assert!(
            mailed.contains(email),
            "the acknowledged code mail to {email} is queued"
        );
    }
    eprintln!(
        "SIGKILL test: {} registrations and {} code mails acknowledged, all found after restart",
        acknowledged.len(),
        coded.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_requests_in_flight_then_exits_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = format!("sqlite://{}/stop.db?mode=rwc", dir.path().display());
    let mut server = ServerProcess::start(&database_url, &[]).await;
    let base = server.address.clone();
    // Password checks take a while each and queue behind two cores: requests are in flight.
    let logins = (0..12).map(|i| {
        let base = base.clone();
        tokio::spawn(async move {
            reqwest::Client::new()
                .post(format!("{base}/api/auth/login"))
                .json(&json!({ "email": format!("nobody{i}@example.com"), "password": "wrong-guess" }))
                .send()
                .await
                .map(|r| r.status())
        })
    });
    let logins: Vec<_> = logins.collect();
    // Stop while they are being answered: once the first has been answered (the metrics count
    // it) and before the last has. Twelve hashes queue behind two cores for a few hundred ms.
    let answered = || async {
        let text = reqwest::get(format!("{base}/metrics"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        text.lines()
            .filter(|l| l.starts_with("http_requests_total") && l.contains("route=\"/api/auth/login\""))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut done = answered().await;
    while done < 1.0 {
        assert!(Instant::now() < deadline, "no login was answered");
        tokio::time::sleep(Duration::from_millis(2)).await;
        done = answered().await;
    }
    server.signal("TERM");
    assert!(
        done < 12.0,
        "every login was answered before the stop: nothing was in flight"
    );
    let started = Instant::now();
    for login in logins {
        assert_eq!(
            login.await.unwrap().expect("an answer, not a dropped connection"),
            StatusCode::UNAUTHORIZED
        );
    }
    let status = tokio::task::spawn_blocking(move || server.wait(Duration::from_secs(15)))
        .await
        .unwrap();
    let status = status.expect("the process exits within 15 s of SIGTERM");
    assert!(status.success(), "{status:?}");
    eprintln!(
        "SIGTERM test: 12 requests in flight answered, exit after {:?}",
        started.elapsed()
    );
}

/// A PostgreSQL of the test's own, so stopping it disturbs no other test.
struct PrivatePostgres {
    dir: tempfile::TempDir,
    port: u16,
    bin: std::path::PathBuf,
}

impl PrivatePostgres {
    fn start() -> Option<Self> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(Result::ok)
            .map(|version| version.path().join("bin"))
            .find(|bin| bin.join("pg_ctl").exists())?;
        let dir = tempfile::tempdir().unwrap();
        if Self::as_root() {
            let ids = |flag: &str| -> u32 {
                let out = Command::new("id").args([flag, "postgres"]).output().unwrap();
                String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
            };
            std::os::unix::fs::chown(dir.path(), Some(ids("-u")), Some(ids("-g"))).unwrap();
        }
        let port = crate::helpers::port_for_a_child();
        let pg = Self { dir, port, bin };
        let data = pg.dir.path().join("data");
        assert!(
            pg.run(
                "initdb",
                &[
                    "-D",
                    data.to_str().unwrap(),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "--no-sync"
                ]
            ),
            "initdb"
        );
        assert!(pg.ctl("start"), "start PostgreSQL");
        Some(pg)
    }

    fn as_root() -> bool {
        Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
    }

    fn run(&self, tool: &str, args: &[&str]) -> bool {
        let tool = self.bin.join(tool);
        let mut command = if Self::as_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(tool);
            c
        } else {
            Command::new(tool)
        };
        command
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    fn ctl(&self, action: &str) -> bool {
        let data = self.dir.path().join("data");
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-w",
                "-m",
                "fast",
                "-o",
                &options,
                action,
            ],
        )
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        self.run(
            "pg_ctl",
            &["-D", data.to_str().unwrap(), "-m", "immediate", "stop"],
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_restart_gives_clean_503s_and_the_same_process_serves_again() {
    let Some(pg) = PrivatePostgres::start() else {
        assert!(
            crate::helpers::sqlite_only(),
            "PostgreSQL's server binaries are missing (scripts/test-deps.sh installs them; TEST_SQLITE_ONLY=1 skips knowingly)"
        );
        eprintln!("TEST_SQLITE_ONLY=1: the restart test did nothing");
        return;
    };
    let app = TestApp::builder(Backend::Postgres)
        .env("DATABASE_URL", &pg.url())
        .start()
        .await;
    let token = app.signed_up("steady@example.com").await;

    // A steady load of session checks and registrations throughout.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let statuses = Arc::new(Mutex::new(Vec::<u16>::new()));
    let load = {
        let (stop, statuses, base, token) =
            (stop.clone(), statuses.clone(), app.address.clone(), token.clone());
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                n += 1;
                let verify = client
                    .get(format!("{base}/api/auth/verify"))
                    .bearer_auth(&token)
                    .send()
                    .await;
                let register = client
                    .post(format!("{base}/api/auth/register"))
                    .json(&registration(&format!("load{n}@example.com")))
                    .send()
                    .await;
                for response in [verify, register] {
                    // The process stays up through the database's restart: a dropped
                    // connection is a failure (status 0 below), not something to skip.
                    let Ok(response) = response else {
                        statuses.lock().unwrap().push(0);
                        continue;
                    };
                    let status = response.status().as_u16();
                    let body: Value = response.json().await.unwrap_or(Value::Null);
                    if status >= 500 {
                        assert_eq!(body["code"], "UNAVAILABLE", "a 5xx is the envelope's 503: {body}");
                    }
                    statuses.lock().unwrap().push(status);
                }
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;

    assert!(pg.ctl("stop"), "stop PostgreSQL");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let ready = app.get("/readyz").await;
        if ready.status() == StatusCode::SERVICE_UNAVAILABLE {
            break;
        }
        assert!(Instant::now() < deadline, "/readyz never noticed");
    }
    let body = json_of(
        app.get_as(&token, "/api/auth/verify").await,
        StatusCode::SERVICE_UNAVAILABLE,
    )
    .await;
    assert_eq!(body["code"], "UNAVAILABLE");
    assert_eq!(body["success"], false);

    assert!(pg.ctl("start"), "start PostgreSQL again");
    let deadline = Instant::now() + Duration::from_secs(30);
    while app.get("/readyz").await.status() != StatusCode::OK {
        assert!(Instant::now() < deadline, "/readyz never came back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
    // The load itself is served again: a success after the restart.
    let restarted_at = statuses.lock().unwrap().len();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !statuses.lock().unwrap()[restarted_at..].iter().any(|s| *s < 300) {
        assert!(Instant::now() < deadline, "the load was not served again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    load.await.expect("no response broke the envelope");
    let statuses = statuses.lock().unwrap().clone();
    assert!(
        statuses.iter().all(|s| [200, 201, 503].contains(s)),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&503) && statuses.last() != Some(&503),
        "{statuses:?}"
    );
    eprintln!(
        "PostgreSQL restart: {} requests, {} answered 503 while it was down, none failed otherwise",
        statuses.len(),
        statuses.iter().filter(|s| **s == 503).count()
    );
}

db_test!(
    /// Clients that hang up while their request is at the database leave no transaction open
    /// on a pooled connection: a handler dropped between `BEGIN` and its answer used to leave
    /// PostgreSQL inside a transaction the pool did not know of, and later requests given that
    /// connection ran in it, holding their locks. Each hang-up lands at another moment of the
    /// request: before its transaction, inside it, or after.
    async fn clients_that_hang_up_mid_request_leave_no_transaction_open(app: TestApp) {
        use tokio::io::AsyncWriteExt;
        let address = app.address.trim_start_matches("http://").to_owned();
        for n in 0..300u64 {
            let body = format!(r#"{{"email":"hang-up-{n}@example.com"}}"#);
            let request = format!(
                "POST /api/auth/send-otp-email HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
            stream.write_all(request.as_bytes()).await.unwrap();
            tokio::time::sleep(Duration::from_micros(n * 37 % 4000)).await;
            drop(stream);
        }
        // The requests that were still running finish (or were dropped) within this.
        tokio::time::sleep(Duration::from_secs(2)).await;
        if app.backend == Backend::Postgres {
            // A request still running on a busy machine is briefly idle in its transaction
            // too; a transaction left behind stays so.
            let deadline = Instant::now() + Duration::from_secs(15);
            loop {
                let stuck = app
                    .count(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                         AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'",
                    )
                    .await;
                if stuck == 0 {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "pooled connections left inside a transaction: {stuck}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        // Every connection the pool holds still answers, and the server serves the next person.
        let response = app
            .post(
                "/api/auth/send-otp-email",
                json!({ "email": "after@example.com" }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK);
    }
);

/// A TCP relay to PostgreSQL whose connections can go silent: those it relays stay open and
/// pass nothing more, as when a firewall or a failover drops them without a reset, while new
/// connections are relayed as before.
struct SilentRelay {
    port: u16,
    accepted: Arc<std::sync::atomic::AtomicU64>,
    /// Connections numbered below this are silent.
    silent_below: Arc<std::sync::atomic::AtomicU64>,
}

impl SilentRelay {
    async fn start(to: std::net::SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let silent_below = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let (count, silent) = (accepted.clone(), silent_below.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let n = count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Ok(server) = tokio::net::TcpStream::connect(to).await else {
                    continue;
                };
                let (client_in, client_out) = client.into_split();
                let (server_in, server_out) = server.into_split();
                tokio::spawn(pipe(client_in, server_out, n, silent.clone()));
                tokio::spawn(pipe(server_in, client_out, n, silent.clone()));
            }
        });
        Self {
            port,
            accepted,
            silent_below,
        }
    }

    /// Every connection open now goes silent.
    fn silence_open_connections(&self) {
        use std::sync::atomic::Ordering;
        self.silent_below
            .store(self.accepted.load(Ordering::SeqCst), Ordering::SeqCst);
    }
}

/// Copies `from` to `to` until either ends, or holds both open for ever once connection `n` is
/// silent.
async fn pipe(
    mut from: impl tokio::io::AsyncRead + Unpin,
    mut to: impl tokio::io::AsyncWrite + Unpin,
    n: u64,
    silent_below: Arc<std::sync::atomic::AtomicU64>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let Ok(read) = from.read(&mut buf).await else {
            return;
        };
        if read == 0 {
            return;
        }
        if n < silent_below.load(std::sync::atomic::Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        if to.write_all(&buf[..read]).await.is_err() {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_connection_gone_silent_holds_the_session_checks_for_seconds_not_for_ever() {
    let Some(direct) = TestApp::spawn_postgres().await else {
        return;
    };
    let mut url = url::Url::parse(&direct.database_url).unwrap();
    let target = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap_or(5432));
    let relay = SilentRelay::start(target.parse().unwrap()).await;
    url.set_port(Some(relay.port)).unwrap();
    let app = direct
        .another_instance_builder()
        .env("DATABASE_URL", url.as_str())
        .start()
        .await;
    // Signed up on the other instance (whose mail the test reads), checked on this one.
    let token = direct.signed_up("silent@example.com").await;
    assert_eq!(
        app.get_as(&token, "/api/auth/verify").await.status(),
        StatusCode::OK
    );

    // Every connection the instance holds goes silent; new ones still reach PostgreSQL.
    relay.silence_open_connections();
    let started = Instant::now();
    let first = app.get_as(&token, "/api/auth/verify").await;
    assert_eq!(first.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "answered after {:?}, not at the request's own 30 s limit",
        started.elapsed()
    );
    // The silent connection is dropped, and the checks after it are answered on a new one.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let status = app.get_as(&token, "/api/auth/verify").await.status();
        if status == StatusCode::OK {
            break;
        }
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(Instant::now() < deadline, "the session checks never came back");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_started_together_on_a_new_postgresql_database_all_serve() {
    if !TestApp::postgres_configured() {
        return;
    }
    let admin_url = std::env::var("TEST_POSTGRES_URL").unwrap();
    let name = format!("test_together_{}", uuid::Uuid::new_v4().simple());
    let admin = Database::connect(&admin_url).await.unwrap();
    admin
        .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
        .await
        .unwrap();
    let url = crate::helpers::database_url(&admin_url, &name);
    // A deployment that starts its replicas at once on an empty database: each migrates.
    let servers = join_all((0..3).map(|_| ServerProcess::start(&url, &[]))).await;
    for server in &servers {
        assert_eq!(
            reqwest::get(server.url("/readyz")).await.unwrap().status(),
            StatusCode::OK
        );
    }
    drop(servers);
    admin
        .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_file_locked_by_another_process_past_the_busy_wait_is_a_503_that_loses_nothing() {
    use sea_orm::sqlx::{self, Connection};
    let app = TestApp::spawn(Backend::Sqlite).await;
    // An operator's `sqlite3` session (or a backup) holding the whole file.
    let mut other = sqlx::SqliteConnection::connect(&app.database_url).await.unwrap();
    sqlx::query("BEGIN EXCLUSIVE").execute(&mut other).await.unwrap();
    let refused = app.register("locked@example.com").await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.headers()["retry-after"], "1");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "UNAVAILABLE", "{body}");
    sqlx::query("COMMIT").execute(&mut other).await.unwrap();
    // Nothing of the refused request was kept: the same registration goes through now.
    json_of(app.register("locked@example.com").await, StatusCode::CREATED).await;
}
