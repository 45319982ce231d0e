//! `TestApp`: the real server on port 0 against a fresh, migrated database of its own (a copy
//! of one seeded per test process), with a real SMTP listener; one helper per call so each test
//! reads like the journey it checks.

use std::{collections::HashMap, sync::LazyLock};

use api::{app::Application, config::Config, db};
use reqwest::{Response, StatusCode};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, Statement};
use serde_json::{Value, json};
use tokio::sync::oneshot;
use uuid::Uuid;

use crate::smtp::{ReceivedMail, SmtpCatcher};

/// Runs the test body once on SQLite and once on PostgreSQL (when TEST_POSTGRES_URL is set).
macro_rules! db_test {
    ($(#[$meta:meta])* async fn $name:ident($app:ident: TestApp) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($app: $crate::helpers::TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                run($crate::helpers::TestApp::spawn($crate::helpers::Backend::Sqlite).await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                if let Some(app) = $crate::helpers::TestApp::spawn_postgres().await {
                    run(app).await;
                }
            }
        }
    };
    // The same, with the servers' settings changed by `$setup(builder) -> builder` first.
    ($(#[$meta:meta])* async fn $name:ident($app:ident: TestApp) using $setup:path; $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($app: $crate::helpers::TestApp) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_sqlite() {
                let builder = $crate::helpers::TestApp::builder($crate::helpers::Backend::Sqlite);
                run($setup(builder).start().await).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_postgres() {
                if $crate::helpers::TestApp::postgres_configured() {
                    let builder = $crate::helpers::TestApp::builder($crate::helpers::Backend::Postgres);
                    run($setup(builder).start().await).await;
                }
            }
        }
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub const PASSWORD: &str = "quietRiver42";
/// Seals the test server's signing keys (every instance of one test shares it).
pub const TEST_KEY_ENCRYPTION_KEY: &str = "6b656b2d666f722d74686520746573747320616e64206e6f7468696e6720656c";

static TRACING: LazyLock<()> = LazyLock::new(|| {
    if std::env::var("TEST_LOG").is_ok() {
        api::telemetry::init(false);
    }
});

pub struct TestApp {
    pub address: String,
    /// The `METRICS_ADDR` listener's port, when the test asked for one.
    pub metrics_port: Option<u16>,
    pub backend: Backend,
    pub database_url: String,
    pub client: reqwest::Client,
    pub mail: SmtpCatcher,
    pub db: DatabaseConnection,
    shutdown: Option<oneshot::Sender<()>>,
    _database: DatabaseGuard,
}

/// Holds the temp SQLite folder, or drops the PostgreSQL database at the end.
enum DatabaseGuard {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, name: String },
    Caller,
}

impl Drop for DatabaseGuard {
    fn drop(&mut self) {
        if let Self::Postgres { admin_url, name } = self {
            let (admin_url, name) = (admin_url.clone(), name.clone());
            // Drop happens inside the test's runtime: use a thread with its own.
            let _ = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                runtime.block_on(async move {
                    if let Ok(admin) = Database::connect(&admin_url).await {
                        let _ = admin
                            .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                            .await;
                        let _ = admin.close().await;
                    }
                });
            })
            .join();
        }
    }
}

/// The URL of database `name` on the server of `admin_url`.
pub fn database_url(admin_url: &str, name: &str) -> String {
    let mut url = url::Url::parse(admin_url).expect("TEST_POSTGRES_URL is a URL");
    url.set_path(name);
    url.to_string()
}

/// What every test database starts as: migrated, and holding the OpenID Provider's two current
/// signing keys, sealed with the test servers' key. Each test database used to make its own
/// 2048-bit RSA key on first use, a sixth of the suite's CPU (BENCHMARKS.md); a test of that
/// first use starts without them ([`Builder::without_signing_keys`]).
async fn seed(template: &DatabaseConnection) {
    db::migrate(template).await.expect("migrate the template");
    let vault = vault();
    for alg in [api::oidc::keys::RS256, api::oidc::keys::EDDSA] {
        api::oidc::keys::current(template, &vault, alg)
            .await
            .expect("a signing key in the template");
    }
}

/// The bytes of a seeded SQLite database, made once per test process: each SQLite test writes
/// them to its own folder instead of migrating from empty and making its own keys.
async fn sqlite_template() -> &'static [u8] {
    static TEMPLATE: tokio::sync::OnceCell<Vec<u8>> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let dir = tempfile::tempdir().expect("temp dir");
            let path = dir.path().join("template.db");
            let template = db::connect(&format!("sqlite://{}?mode=rwc", path.display()))
                .await
                .expect("open the template");
            seed(&template).await;
            // Everything in the main file, so that the file alone is the whole database.
            template
                .execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)")
                .await
                .expect("checkpoint the template");
            template.close().await.expect("close the template");
            std::fs::read(&path).expect("read the template")
        })
        .await
}

/// The seeded PostgreSQL database this test process copies for each test, made on first use.
///
/// Migrating a fresh database took a second of each PostgreSQL test (thirteen migrations, each
/// committed on its own); `CREATE DATABASE ... TEMPLATE` copies a migrated one in a tenth of
/// that. Each test still runs the migrator against its copy, which finds nothing to do. The
/// name carries the process id, so test processes side by side never share one; a template
/// whose process has ended is dropped here.
async fn migrated_template(admin_url: &str) -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let admin = Database::connect(admin_url).await.expect("connect to PostgreSQL");
            let left = admin
                .query_all_raw(Statement::from_string(
                    admin.get_database_backend(),
                    "SELECT datname FROM pg_database WHERE datname LIKE 'test\\_template\\_%'",
                ))
                .await
                .expect("list the test templates");
            for row in left {
                let name: String = row.try_get("", "datname").expect("a database name");
                let ended = name
                    .rsplit('_')
                    .next()
                    .and_then(|pid| pid.parse::<u32>().ok())
                    .is_some_and(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists());
                if ended {
                    let _ = admin
                        .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                        .await;
                }
            }
            let name = format!("test_template_{}", std::process::id());
            admin
                .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                .await
                .expect("drop an earlier template of this process id");
            admin
                .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                .await
                .expect("create the template database");
            // A template may not be copied while anyone is connected to it: migrate, close, and
            // let nobody connect to it again, autovacuum included.
            let template = db::connect(&database_url(admin_url, &name))
                .await
                .expect("connect to the template");
            seed(&template).await;
            template.close().await.expect("close the template's connections");
            admin
                .execute_unprepared(&format!("ALTER DATABASE \"{name}\" ALLOW_CONNECTIONS false"))
                .await
                .expect("close the template to connections");
            admin.close().await.ok();
            name
        })
        .await
}

pub struct Builder {
    backend: Backend,
    vars: HashMap<&'static str, String>,
    mail: Option<SmtpCatcher>,
    /// The port [`Builder::own_origin`] found, still held so no other test takes it.
    listener: Option<std::net::TcpListener>,
    /// Whether the database starts with the template's signing keys.
    signing_keys: bool,
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::builder(backend).start().await
    }

    /// Whether the PostgreSQL runs can happen. Without `TEST_POSTGRES_URL` a test fails,
    /// unless `TEST_SQLITE_ONLY=1` says the run is SQLite-only on purpose (never under CI).
    pub fn postgres_configured() -> bool {
        if std::env::var("TEST_POSTGRES_URL").is_ok() {
            return true;
        }
        assert!(
            sqlite_only(),
            "TEST_POSTGRES_URL is not set: every test runs on PostgreSQL too (TEST_SQLITE_ONLY=1 skips those runs knowingly)"
        );
        eprintln!("TEST_SQLITE_ONLY=1: the PostgreSQL run of this test did nothing");
        false
    }

    /// `None` (and a note on stderr) when TEST_POSTGRES_URL is not set.
    pub async fn spawn_postgres() -> Option<Self> {
        if Self::postgres_configured() {
            Some(Self::spawn(Backend::Postgres).await)
        } else {
            None
        }
    }

    pub fn builder(backend: Backend) -> Builder {
        Builder {
            backend,
            vars: HashMap::new(),
            mail: None,
            listener: None,
            signing_keys: true,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// A client that keeps cookies, like a browser.
    pub fn browser(&self) -> reqwest::Client {
        reqwest::Client::builder().cookie_store(true).build().unwrap()
    }

    pub async fn post(&self, path: &str, body: Value) -> Response {
        self.client
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .expect("request")
    }

    pub async fn post_as(&self, token: &str, path: &str, body: Value) -> Response {
        self.client
            .post(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("request")
    }

    pub async fn get(&self, path: &str) -> Response {
        self.client.get(self.url(path)).send().await.expect("request")
    }

    pub async fn get_as(&self, token: &str, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("request")
    }

    pub async fn put_as(&self, token: &str, path: &str, body: Value) -> Response {
        self.client
            .put(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("request")
    }

    pub async fn delete_as(&self, token: &str, path: &str) -> Response {
        self.client
            .delete(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("request")
    }

    pub async fn graphql(&self, token: Option<&str>, query: &str, variables: Value) -> Value {
        let mut request = self
            .client
            .post(self.url("/api/graphql"))
            .json(&json!({ "query": query, "variables": variables }));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("request").json().await.expect("json")
    }

    pub async fn register(&self, email: &str) -> Response {
        self.post(
            "/api/auth/register",
            json!({
                "name": "Asha Verma",
                "email": email,
                "countryCode": "+91",
                "phone": "+919876543210",
                "password": PASSWORD,
                "role": "career",
            }),
        )
        .await
    }

    pub async fn send_code(&self, email: &str) -> Response {
        self.post("/api/auth/send-otp-email", json!({ "email": email }))
            .await
    }

    pub async fn verify_code(&self, email: &str, otp: &str) -> Response {
        self.post(
            "/api/auth/verify-otp-email",
            json!({ "email": email, "otp": otp }),
        )
        .await
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.post("/api/auth/login", json!({ "email": email, "password": password }))
            .await
    }

    /// The six-digit code of the newest code mail to `email`.
    pub async fn code_from_mail(&self, email: &str, nth: usize) -> String {
        let mails = self.mail.wait_for(email, nth).await;
        code_in(&mails[nth - 1])
    }

    /// Registers, verifies by the mailed code and returns the session token.
    pub async fn signed_up(&self, email: &str) -> String {
        assert_eq!(self.register(email).await.status(), StatusCode::CREATED);
        assert_eq!(self.send_code(email).await.status(), StatusCode::OK);
        let code = self.code_from_mail(email, 1).await;
        let body = json_of(self.verify_code(email, &code).await, StatusCode::OK).await;
        body["data"]["token"].as_str().expect("token").to_owned()
    }

    /// A second server process of the same deployment: the same database, the same mail
    /// server, its own port, caches and workers.
    pub async fn another_instance(&self) -> TestApp {
        self.another_instance_builder().start().await
    }

    /// [`TestApp::another_instance`], with settings of its own still to add.
    pub fn another_instance_builder(&self) -> Builder {
        TestApp::builder(self.backend)
            .env("DATABASE_URL", &self.database_url)
            .smtp_port(self.mail.port)
    }

    /// A single number from SQL (a count, say).
    pub async fn count(&self, sql: &str) -> i64 {
        count(&self.db, sql).await
    }

    /// A client whose requests come from `ip` (any address of 127.0.0.0/8), as if from
    /// another machine.
    pub fn client_at(&self, ip: &str) -> reqwest::Client {
        reqwest::Client::builder()
            .local_address(ip.parse::<std::net::IpAddr>().expect("an address"))
            .build()
            .unwrap()
    }

    /// Waits, at most 20 s, until `sql` counts at least `n`; the count it reached.
    pub async fn eventually(&self, sql: &str, n: i64) -> i64 {
        self.eventually_within(sql, n, std::time::Duration::from_secs(20))
            .await
    }

    /// [`TestApp::eventually`], waiting at most `limit`.
    pub async fn eventually_within(&self, sql: &str, n: i64, limit: std::time::Duration) -> i64 {
        let deadline = std::time::Instant::now() + limit;
        loop {
            let reached = self.count(sql).await;
            if reached >= n || std::time::Instant::now() > deadline {
                return reached;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// A positive sign that the mail worker has finished with everything queued before it:
    /// a mail queued now (to an address with no account) arrives, and every outbox row is
    /// marked sent. After this, a mail that has not arrived will not.
    pub async fn mail_settled(&self) {
        let marker = format!("marker-{}@example.com", Uuid::new_v4().simple());
        self.post("/api/auth/forgot-password", json!({ "email": marker }))
            .await;
        self.mail.wait_for(&marker, 1).await;
        let unsent = "SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL";
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while self.count(unsent).await > 0 {
            assert!(std::time::Instant::now() < deadline, "the outbox did not drain");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Runs SQL on the test's database (to age a code, say).
    pub async fn sql(&self, sql: &str) {
        self.db
            .execute_raw(Statement::from_string(
                self.db.get_database_backend(),
                sql.to_owned(),
            ))
            .await
            .expect("sql");
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl Builder {
    pub fn env(mut self, name: &'static str, value: &str) -> Self {
        self.vars.insert(name, value.to_owned());
        self
    }

    /// Serves on a port chosen now, with `MAIN_PLATFORM_URL` set to its own address, so the
    /// server is the issuer its OpenID clients discover.
    pub fn own_origin(mut self) -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("a bound port").port();
        self.listener = Some(listener);
        self.vars.insert("BIND_ADDR", format!("127.0.0.1:{port}"));
        self.vars
            .insert("MAIN_PLATFORM_URL", format!("http://127.0.0.1:{port}"));
        self
    }

    /// Points the mail worker at another catcher's port (another instance's, say).
    pub fn smtp_port(self, port: u16) -> Self {
        self.mail_server(SmtpCatcher::detached(port))
    }

    /// Starts with no signing keys, as a new deployment does: the server makes them on first use.
    pub fn without_signing_keys(mut self) -> Self {
        self.signing_keys = false;
        self
    }

    /// Points the mail worker at this catcher, whether or not it listens yet.
    pub fn mail_server(mut self, catcher: SmtpCatcher) -> Self {
        self.mail = Some(catcher);
        self
    }

    pub async fn start(self) -> TestApp {
        LazyLock::force(&TRACING);
        let (database_url, guard) = match self.backend {
            // A database the test chose itself (to share it with the CLI, say).
            _ if self.vars.contains_key("DATABASE_URL") => {
                (self.vars["DATABASE_URL"].clone(), DatabaseGuard::Caller)
            }
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let path = dir.path().join("test.db");
                std::fs::write(&path, sqlite_template().await).expect("copy the template");
                let url = format!("sqlite://{}?mode=rwc", path.display());
                (url, DatabaseGuard::Sqlite(dir))
            }
            Backend::Postgres => {
                let admin_url = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL");
                let name = format!("test_{}", Uuid::new_v4().simple());
                let template = migrated_template(&admin_url).await;
                let admin = Database::connect(&admin_url)
                    .await
                    .expect("connect to PostgreSQL");
                admin
                    .execute_unprepared(&format!("CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""))
                    .await
                    .expect("create database");
                admin.close().await.ok();
                (
                    database_url(&admin_url, &name),
                    DatabaseGuard::Postgres { admin_url, name },
                )
            }
        };
        let mail = match self.mail {
            Some(catcher) => catcher,
            None => SmtpCatcher::start().await,
        };
        let smtp_port = mail.port;
        let mut vars: HashMap<&str, String> = HashMap::from([
            ("APP_ENV", "local".to_owned()),
            ("APP_NAME", "Talent Suite".to_owned()),
            ("JWT_SECRET", "test-secret-test-secret-test-secret".to_owned()),
            ("KEY_ENCRYPTION_KEY", TEST_KEY_ENCRYPTION_KEY.to_owned()),
            ("MAIN_PLATFORM_URL", "http://main.test".to_owned()),
            ("HIRE_PLATFORM_URL", "http://hire.test".to_owned()),
            ("CAMPUS_PLATFORM_URL", "http://campus.test".to_owned()),
            ("CAREER_PLATFORM_URL", "http://career.test".to_owned()),
            ("BIND_ADDR", "127.0.0.1:0".to_owned()),
            ("SMTP_URL", format!("smtp://127.0.0.1:{smtp_port}")),
            ("MAIL_FROM", "Talent Suite <no-reply@talent.test>".to_owned()),
            ("CLIENT_DIST_DIR", "/nonexistent-test-dist".to_owned()),
            ("DATABASE_URL", database_url.clone()),
        ]);
        vars.extend(self.vars);
        vars.retain(|_, v| !v.is_empty());
        let config = Config::from_lookup(|name| vars.get(name).cloned()).expect("test config");
        let connection = db::connect(&database_url).await.expect("connect");
        db::migrate(&connection).await.expect("migrate");
        if !self.signing_keys {
            connection
                .execute_unprepared("DELETE FROM signing_keys")
                .await
                .expect("start without signing keys");
        }
        let app = match self.listener {
            Some(listener) => {
                listener.set_nonblocking(true).expect("a non-blocking listener");
                let listener = tokio::net::TcpListener::from_std(listener).expect("a tokio listener");
                Application::build_on(config, connection.clone(), listener).await
            }
            None => Application::build_with(config, connection.clone()).await,
        }
        .expect("build app");
        let port = app.port();
        let metrics_port = app.metrics_port();
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            app.run_until(async {
                let _ = rx.await;
            })
            .await
            .expect("server");
        });
        TestApp {
            address: format!("http://127.0.0.1:{port}"),
            metrics_port,
            backend: self.backend,
            database_url,
            client: reqwest::Client::new(),
            mail,
            db: connection,
            shutdown: Some(tx),
            _database: guard,
        }
    }
}

/// The settings of a local server run as its binary (the fault tests, the CLI, the log test).
pub const LOCAL_ENV: [(&str, &str); 9] = [
    ("APP_ENV", "local"),
    ("APP_NAME", "Talent Suite"),
    ("JWT_SECRET", "test-secret-test-secret-test-secret"),
    ("KEY_ENCRYPTION_KEY", TEST_KEY_ENCRYPTION_KEY),
    ("MAIN_PLATFORM_URL", "http://main.test"),
    ("HIRE_PLATFORM_URL", "http://hire.test"),
    ("CAMPUS_PLATFORM_URL", "http://campus.test"),
    ("CAREER_PLATFORM_URL", "http://career.test"),
    ("CLIENT_DIST_DIR", "/nonexistent-test-dist"),
];

/// The vault the test servers seal their signing keys with.
pub fn vault() -> api::oidc::keys::Vault {
    let key = hex::decode(TEST_KEY_ENCRYPTION_KEY).unwrap();
    api::oidc::keys::Vault::new(&api::config::KeyEncryptionKeys {
        current: key.try_into().unwrap(),
        previous: Vec::new(),
    })
}

/// `TEST_SQLITE_ONLY=1`: the PostgreSQL runs are skipped on purpose. Refused under CI, where
/// every guard is armed.
pub fn sqlite_only() -> bool {
    let asked = std::env::var("TEST_SQLITE_ONLY").is_ok_and(|v| v == "1");
    assert!(
        !(asked && std::env::var("CI").is_ok()),
        "TEST_SQLITE_ONLY is refused under CI"
    );
    asked
}

/// A single number from SQL on `db` (a count, say).
pub async fn count(db: &DatabaseConnection, sql: &str) -> i64 {
    try_count(db, sql)
        .await
        .unwrap_or_else(|| panic!("no number from {sql}"))
}

/// A single number from SQL on `db`, or `None` when the statement fails or answers none.
pub async fn try_count(db: &DatabaseConnection, sql: &str) -> Option<i64> {
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql.to_owned()))
        .await
        .ok()??;
    row.try_get_by_index::<i64>(0).ok()
}

/// For a race of requests for one thing that can be had once: exactly one got it (200) and
/// every other one was `refused` with this status. Returns the statuses for further checks.
pub fn exactly_one_won(answers: &[Response], refused: StatusCode) -> Vec<StatusCode> {
    let statuses: Vec<StatusCode> = answers.iter().map(Response::status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::OK).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK || *s == refused),
        "{statuses:?}"
    );
    statuses
}

/// The JSON body, after checking the status.
pub async fn json_of(response: Response, status: StatusCode) -> Value {
    let actual = response.status();
    let body: Value = response.json().await.expect("a JSON body");
    assert_eq!(actual, status, "unexpected status; body: {body}");
    body
}

/// The six digits after "code is:" in a code mail.
pub fn code_in(mail: &ReceivedMail) -> String {
    let text = mail.text();
    let after = text.split("code is:").nth(1).expect("a code mail");
    after.chars().filter(char::is_ascii_digit).take(6).collect()
}

/// The reset token at the end of the link in a reset mail.
pub fn reset_token_in(mail: &ReceivedMail) -> String {
    token_after(mail, "/reset-password/").expect("a reset link")
}

/// The token that follows `path` (`/invitations/`, `/magic-link/`) in a mail's link, if any.
pub fn token_after(mail: &ReceivedMail, path: &str) -> Option<String> {
    let text = mail.text();
    let start = text.find(path)? + path.len();
    Some(
        text[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect(),
    )
}

/// Drives `request` until PostgreSQL shows a statement of this test's database waiting on a row
/// lock, that is, until the request has blocked behind the transaction the test holds open;
/// `refused` is the failure when it answers instead.
pub async fn until_it_waits_on_a_lock(
    app: &TestApp,
    mut request: std::pin::Pin<&mut impl std::future::Future<Output = reqwest::Response>>,
    refused: &str,
) {
    let waiting = "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
    loop {
        tokio::select! {
            answer = &mut request => panic!("{refused}: {}", answer.status()),
            () = tokio::time::sleep(std::time::Duration::from_millis(20)) => {
                if app.count(waiting).await > 0 {
                    return;
                }
            }
        }
    }
}

/// A free port for a process a test starts (a server binary, a PostgreSQL, a client that is
/// down for now), from below the kernel's ephemeral range: a port the test binds and lets go
/// from that range could be handed meanwhile to another test's listener binding port 0, and
/// the test then talked to the wrong server (a key count read 0 under load). Ports are handed
/// out in turn within this process, each checked free.
pub fn port_for_a_child() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let ephemeral_low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(32768);
    let (low, high) = (10_000_u16, ephemeral_low.max(10_100));
    let span = high - low;
    let _ = NEXT.compare_exchange(
        0,
        (std::process::id() % u32::from(span)) as u16 + 1,
        Ordering::SeqCst,
        Ordering::SeqCst,
    );
    for _ in 0..span {
        let port = low + NEXT.fetch_add(1, Ordering::SeqCst) % span;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between {low} and {high}");
}
