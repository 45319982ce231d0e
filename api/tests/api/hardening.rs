//! Headers, metrics and configuration a deployment relies on: HSTS outside local, a CSP on
//! every HTML page, nothing from the API kept by a cache, metrics kept from the public, and
//! introspection off where it is not wanted.

use reqwest::StatusCode;
use serde_json::json;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};

use crate::helpers::{Backend, TestApp, json_of};

#[tokio::test]
async fn hsts_is_sent_outside_local_only() {
    let development = TestApp::builder(Backend::Sqlite)
        .env("APP_ENV", "development")
        .start()
        .await;
    let response = development.get("/healthz").await;
    assert_eq!(
        response.headers()["strict-transport-security"],
        "max-age=63072000; includeSubDomains"
    );
    let local = TestApp::spawn(Backend::Sqlite).await;
    assert!(
        !local
            .get("/healthz")
            .await
            .headers()
            .contains_key("strict-transport-security")
    );
}

db_test! {
    async fn html_pages_carry_a_csp_and_api_answers_are_never_cached(app: TestApp) {
        for path in ["/", "/no-such-page", "/dev/mailbox"] {
            let response = app.get(path).await;
            assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"), "{path}");
            let csp = response.headers()["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        }
        let login = app.login("nobody@example.com", "wrong-guess").await;
        assert_eq!(login.headers()["cache-control"], "no-store");
        let token = app.signed_up("cache@example.com").await;
        let verify = app.get_as(&token, "/api/auth/verify").await;
        assert_eq!(verify.headers()["cache-control"], "no-store");
        assert_eq!(app.get("/dev/mailbox").await.headers()["cache-control"], "no-store");
        let graphiql = app.client.get(app.url("/api/graphql")).header("accept", "text/html").send().await.unwrap();
        assert!(graphiql.headers()["content-security-policy"].to_str().unwrap().contains("unpkg.com"));
    }
}

#[tokio::test]
async fn metrics_are_kept_from_the_public_outside_local() {
    let open = TestApp::builder(Backend::Sqlite)
        .env("APP_ENV", "development")
        .start()
        .await;
    let body = json_of(open.get("/metrics").await, StatusCode::NOT_FOUND).await;
    assert_eq!(body["code"], "NOT_FOUND");

    let guarded = TestApp::builder(Backend::Sqlite)
        .env("APP_ENV", "development")
        .env("METRICS_TOKEN", "scrape-me")
        .start()
        .await;
    json_of(guarded.get("/metrics").await, StatusCode::UNAUTHORIZED).await;
    let wrong = guarded
        .client
        .get(guarded.url("/metrics"))
        .bearer_auth("guess")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        wrong.headers()["www-authenticate"],
        "Bearer realm=\"metrics\"",
        "a scraper is told which scheme to use"
    );
    // The scheme's name in any case, as everywhere else a bearer token is read.
    let lowercase = guarded
        .client
        .get(guarded.url("/metrics"))
        .header("authorization", "bearer scrape-me")
        .send()
        .await
        .unwrap();
    assert_eq!(lowercase.status(), StatusCode::OK);
    let right = guarded
        .client
        .get(guarded.url("/metrics"))
        .bearer_auth("scrape-me")
        .send()
        .await
        .unwrap();
    assert_eq!(right.status(), StatusCode::OK);
    assert!(right.text().await.unwrap().contains("http_requests_total"));

    let separate = TestApp::builder(Backend::Sqlite)
        .env("METRICS_ADDR", "127.0.0.1:0")
        .start()
        .await;
    assert_eq!(
        separate.get("/metrics").await.status(),
        StatusCode::NOT_FOUND,
        "not on the public address"
    );
    let port = separate.metrics_port.expect("a metrics listener");
    let scraped = reqwest::get(format!("http://127.0.0.1:{port}/metrics"))
        .await
        .unwrap();
    assert_eq!(scraped.status(), StatusCode::OK);
}

db_test! {
    async fn unknown_methods_do_not_create_new_metric_series(app: TestApp) {
        let method = reqwest::Method::from_bytes(b"FOO").unwrap();
        app.client.request(method, app.url("/api/auth/verify")).send().await.unwrap();
        let text = app.get("/metrics").await.text().await.unwrap();
        assert!(!text.contains("method=\"FOO\""), "{text}");
        assert!(text.contains("method=\"OTHER\""), "{text}");
    }
}

#[tokio::test]
async fn introspection_is_off_where_it_is_turned_off() {
    let off = TestApp::builder(Backend::Sqlite)
        .env("GRAPHQL_INTROSPECTION", "false")
        .start()
        .await;
    let body = off
        .graphql(None, "{ __schema { queryType { name } } }", json!({}))
        .await;
    assert!(
        body["data"].is_null() || body["data"]["__schema"].is_null(),
        "{body}"
    );
    // Nor does a misspelt field get "Did you mean …?": that would spell the schema out.
    let body = off.graphql(None, "{ adminUser }", json!({})).await;
    let message = body["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("adminUser") && !message.contains("Did you mean"),
        "{body}"
    );
    let on = TestApp::spawn(Backend::Sqlite).await;
    let body = on
        .graphql(None, "{ __schema { queryType { name } } }", json!({}))
        .await;
    assert_eq!(body["data"]["__schema"]["queryType"]["name"], "Query");
    // The depth limit leaves room for the standard introspection query of GraphiQL and code
    // generators, which nests ofType seven times.
    let type_ref = "kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }";
    let deep = format!(
        "{{ __schema {{ types {{ fields {{ args {{ type {{ {type_ref} }} }} type {{ {type_ref} }} }} }} }} }}"
    );
    let body = on.graphql(None, &deep, json!({})).await;
    assert!(body["errors"].is_null(), "{}", body["errors"]);
    assert!(
        body["data"]["__schema"]["types"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
}

/// Runs `api migrate` in a folder holding `dotenv` as `.env`, with only `vars` set, and returns
/// the first line of stderr (empty on success).
fn migrate_with_dotenv(dotenv: &str, vars: &[(&str, &str)], args: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".env"), dotenv).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args(args)
        .arg("migrate")
        .current_dir(dir.path())
        .env_clear()
        .envs(vars.iter().copied())
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&output.stderr)
        .lines()
        .next()
        .unwrap_or("")
        .to_owned();
    (output.status.success(), first)
}

const LOCAL_DOTENV: &str = "APP_ENV=local\nAPP_NAME=\"Talent Suite\"\nJWT_SECRET=x\n\
MAIN_PLATFORM_URL=http://localhost:8080\nHIRE_PLATFORM_URL=http://localhost:8081\n\
CAMPUS_PLATFORM_URL=http://localhost:8082\nCAREER_PLATFORM_URL=http://localhost:8083\n\
DATABASE_URL=sqlite://app.db?mode=rwc\n";

#[test]
fn dotenv_is_read_for_local_development_only() {
    assert_eq!(
        migrate_with_dotenv(LOCAL_DOTENV, &[], &[]),
        (false, "Missing required environment variable: APP_ENV".to_owned()),
        "the file's own APP_ENV line does not stand in for the environment's"
    );
    assert_eq!(
        migrate_with_dotenv(LOCAL_DOTENV, &[("APP_ENV", "local")], &[]),
        (true, String::new())
    );
    let production = LOCAL_DOTENV.replace("APP_ENV=local", "APP_ENV=production");
    assert_eq!(
        migrate_with_dotenv(&production, &[], &[]),
        (false, "Missing required environment variable: APP_ENV".to_owned())
    );
    assert_eq!(
        migrate_with_dotenv(LOCAL_DOTENV, &[("APP_ENV", "production")], &[]),
        (
            false,
            "Missing required environment variable: APP_NAME".to_owned()
        ),
        "a stray .env is ignored by a production process"
    );
    let (ok, first) = migrate_with_dotenv(&production, &[], &["--env-file", ".env"]);
    assert!(!ok);
    assert!(
        first.contains("JWT_SECRET"),
        "the explicit file is read, and its weak secret refused: {first}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_names_the_route_and_never_the_token_in_a_path() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let port = crate::helpers::port_for_a_child();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("serve")
        .current_dir(dir.path())
        .env_clear()
        .envs(crate::helpers::LOCAL_ENV)
        .env(
            "DATABASE_URL",
            format!("sqlite://{}/log.db?mode=rwc", dir.path().display()),
        )
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "info,tower_http=debug")
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !reqwest::get(format!("{base}/healthz"))
        .await
        .is_ok_and(|r| r.status() == StatusCode::OK)
    {
        assert!(Instant::now() < deadline, "the server did not come up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let api_secret = "ApiSecretResetToken0123456789abcdefghijklmnop";
    let page_secret = "PageSecretResetToken0123456789abcdefghijklmn";
    let client = reqwest::Client::new();
    let response = client
        .post(format!("{base}/api/auth/reset-password/{api_secret}"))
        .json(&json!({ "password": "quietRiver42x" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    client
        .get(format!("{base}/reset-password/{page_secret}"))
        .send()
        .await
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(
        written.contains("/api/auth/reset-password/{token}"),
        "the route is logged: {written}"
    );
    assert!(written.contains("/reset-password/{redacted}"), "{written}");
    assert!(
        !written.contains(api_secret) && !written.contains(page_secret),
        "{written}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn production_sends_secure_cookies_on_the_cookie_domain_with_hsts() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("APP_ENV", "production")
        .env("SMTP_ALLOW_PLAINTEXT", "true")
        .env("COOKIE_DOMAIN", "talent.test")
        .env("GOOGLE_CLIENT_ID", "production-client")
        .env("GOOGLE_CLIENT_SECRET", "production-secret")
        .start()
        .await;
    let email = "prod@example.com";
    assert_eq!(app.register(email).await.status(), StatusCode::CREATED);
    assert_eq!(app.send_code(email).await.status(), StatusCode::OK);
    let code = app.code_from_mail(email, 1).await;
    let response = app.verify_code(email, &code).await;
    assert_eq!(
        response.headers()["strict-transport-security"],
        "max-age=63072000; includeSubDomains"
    );
    let cookies: Vec<String> = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let session = cookies
        .iter()
        .find(|c| c.starts_with("ts_session="))
        .expect("the session cookie");
    for part in [
        "HttpOnly",
        "SameSite=Lax",
        "Secure",
        "Domain=talent.test",
        "Path=/",
    ] {
        assert!(session.split("; ").any(|p| p == part), "{part} in {session}");
    }
    let device = cookies
        .iter()
        .find(|c| c.starts_with("ts_device="))
        .expect("the device cookie");
    assert!(
        device.contains("Secure") && device.contains("HttpOnly"),
        "{device}"
    );
    assert!(
        !device.contains("Domain="),
        "the device cookie stays with this site: {device}"
    );
    json_of(response, StatusCode::OK).await;

    // The Google popup's state cookie: Secure too, and Lax (Strict would not come back from Google).
    let start = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(app.url("/api/auth/google/start?intent=login"))
        .send()
        .await
        .unwrap();
    assert!(start.status().is_redirection(), "{}", start.status());
    let state = start.headers()["set-cookie"].to_str().unwrap().to_owned();
    for part in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/api/auth/google"] {
        assert!(state.split("; ").any(|p| p == part), "{part} in {state}");
    }
    assert!(
        start.headers()["location"]
            .to_str()
            .unwrap()
            .starts_with("https://accounts.google.com/")
    );
}

db_test! {
    async fn a_body_compressed_in_another_charset_or_giving_a_field_twice_is_refused(app: TestApp) {
        let login = br#"{"email":"nobody@example.com","password":"wrong-one-1"}"#.to_vec();
        let send = |content_type: &'static str, encoding: Option<&'static str>| {
            let mut request = app
                .client
                .post(app.url("/api/auth/login"))
                .header("content-type", content_type)
                .body(login.clone());
            if let Some(encoding) = encoding {
                request = request.header("content-encoding", encoding);
            }
            request.send()
        };
        // Read as JSON while compressed, it was "not valid JSON"; another charset was read as UTF-8.
        for (content_type, encoding, message) in [
            ("application/json", Some("gzip"), "Request bodies must be sent uncompressed (no Content-Encoding)"),
            ("application/json", Some("br"), "Request bodies must be sent uncompressed (no Content-Encoding)"),
            ("application/json; charset=utf-16", None, "Request bodies must be JSON in UTF-8 (charset=utf-8, or none)"),
            ("application/json; charset=latin1", None, "Request bodies must be JSON in UTF-8 (charset=utf-8, or none)"),
        ] {
            let body = json_of(send(content_type, encoding).await.unwrap(), StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
            assert_eq!(body["message"], message, "{content_type} {encoding:?}");
            assert_eq!(body["code"], "UNSUPPORTED_MEDIA_TYPE");
        }
        // A field given twice is named, not read either way.
        let twice = app
            .client
            .post(app.url("/api/auth/login"))
            .header("content-type", "application/json")
            .body(r#"{"email":"nobody@example.com","password":"wrong-one-1","email":"someone@example.com"}"#)
            .send()
            .await
            .unwrap();
        let body = json_of(twice, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"], json!({ "email": "email may be given only once" }), "{body}");
        for (content_type, encoding) in [
            ("application/json; charset=UTF-8", None),
            ("application/json;charset=\"utf-8\"", Some("identity")),
        ] {
            let response = send(content_type, encoding).await.unwrap();
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{content_type} {encoding:?}");
        }
    }
}

db_test! {
    async fn a_nul_character_or_a_date_out_of_any_range_is_bad_input_never_a_500(app: TestApp) {
        // PostgreSQL stores no U+0000 in text and no date before 4713 BC; SQLite would. Either
        // way the answer is the same 400, from the field's own rule where it has one.
        let register = json!({ "name": "Ann\u{0}Lee", "email": "nul@example.com", "countryCode": "+91", "phone": "9876543210", "password": "quietRiver42", "role": "career" });
        let body = json_of(app.post("/api/auth/register", register).await, StatusCode::BAD_REQUEST).await;
        assert!(body["errors"]["name"].as_str().is_some_and(|m| m.ends_with("cannot contain control characters")), "{body}");

        let token = app.signed_up("fields@example.com").await;
        let body = json_of(app.put_as(&token, "/api/users/profile", json!({ "bio": "one\u{0}two", "website": "https://a.example/\u{0}", "born": "-2000-01-01" })).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"]["bio"], "Bio must not contain control characters", "{body}");
        assert_eq!(body["errors"]["website"], "Website must not contain control characters", "{body}");
        assert_eq!(body["errors"]["born"], "Date of birth must be a date in the format YYYY-MM-DD", "2000 BC: {body}");
        // The contract says as much, so a client (or a fuzzer) can know before it asks.
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        let rule = |schema: &serde_json::Value| regex::Regex::new(schema["pattern"].as_str().unwrap()).unwrap();
        let bio = rule(&doc["components"]["schemas"]["ProfileUpdate"]["properties"]["bio"]);
        assert!(bio.is_match("one\ntwo\tthree") && !bio.is_match("one\u{0}two"));
        // Every code the server answers with is one the document's Error schema allows.
        let codes = doc["components"]["schemas"]["Error"]["properties"]["code"]["enum"].as_array().unwrap();
        for code in ["UNSUPPORTED_MEDIA_TYPE", "REAUTHENTICATION_REQUIRED", "PAYLOAD_TOO_LARGE"] {
            assert!(codes.iter().any(|c| c == code), "{code} missing from {codes:?}");
        }
        let name = rule(&doc["paths"]["/auth/register"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["name"]);
        assert!(name.is_match("Zoë Lee") && !name.is_match("Ann\u{0}Lee"));
        // A bio keeps its lines.
        let body = json_of(app.put_as(&token, "/api/users/profile", json!({ "bio": "one\ntwo" })).await, StatusCode::OK).await;
        assert_eq!(body["data"]["user"]["bio"], "one\ntwo");

        // Cursors this server could not have made: a time in 7537 BC, a NUL in a name.
        let ancient = URL_SAFE_NO_PAD.encode("-300000000000000000|00000000-0000-0000-0000-000000000000");
        let body = json_of(app.get(&format!("/api/news?cursor={ancient}")).await, StatusCode::BAD_REQUEST).await;
        assert!(body["errors"]["cursor"].is_string(), "{body}");
        app.sql("UPDATE users SET role = 'hire' WHERE email = 'fields@example.com'").await;
        let org = json_of(app.post_as(&token, "/api/orgs", json!({ "name": "Acme", "kind": "hire" })).await, StatusCode::CREATED).await;
        let org = org["data"]["organization"]["id"].as_str().unwrap().to_owned();
        let nul_name = URL_SAFE_NO_PAD.encode("0|00000000-0000-0000-0000-000000000000|a\u{0}b");
        let body = json_of(app.get_as(&token, &format!("/api/orgs/{org}/members?cursor={nul_name}")).await, StatusCode::BAD_REQUEST).await;
        assert!(body["errors"]["cursor"].is_string(), "{body}");

        // The OpenID Provider's and the passkeys' unknown ids.
        let authorize = app.get("/oauth2/authorize?client_id=%00&response_type=code").await;
        assert_eq!(authorize.status(), StatusCode::BAD_REQUEST);
        let token_call = app.client.post(app.url("/oauth2/token")).form(&[("grant_type", "authorization_code"), ("client_id", "\u{0}"), ("code", "x")]).send().await.unwrap();
        assert!(token_call.status().is_client_error(), "{}", token_call.status());
        let passkey = app.post("/api/auth/passkeys/login/finish", json!({ "challenge": "\u{0}", "credential": {} })).await;
        assert!(passkey.status().is_client_error(), "{}", passkey.status());

        // A post's texts have the rule too, on both databases.
        app.sql("UPDATE users SET role = 'admin' WHERE email = 'fields@example.com'").await;
        let news = app.post_as(&token, "/api/news", json!({ "title": "A\u{0}B", "summary": "s", "body": "b" })).await;
        assert_eq!(json_of(news, StatusCode::BAD_REQUEST).await["errors"]["title"], "Title cannot contain control characters");
        // Where no field's rule looks for it (an application's name, which only admins type),
        // the database's refusal is still bad input, in words, not a 500.
        let created = app.graphql(Some(&token), "mutation { createOAuthClient(input: { name: \"A\\u0000B\", redirectUris: [\"https://x.example/cb\"] }) { clientSecret } }", json!({})).await;
        match app.backend {
            Backend::Postgres => {
                assert_eq!(created["errors"][0]["message"], "A value is out of range or holds a character that cannot be stored", "{created}");
                assert_eq!(created["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
            }
            Backend::Sqlite => assert!(created["data"]["createOAuthClient"]["clientSecret"].is_string(), "{created}"),
        }
    }
}

#[tokio::test]
async fn a_path_segment_that_is_not_utf8_is_answered_as_an_unknown_id_or_token() {
    let app = TestApp::spawn(crate::helpers::Backend::Sqlite).await;
    let token = app.signed_up("paths@example.com").await;
    app.sql("UPDATE users SET role = 'admin' WHERE email = 'paths@example.com'")
        .await;
    // Each route with a parameter, the parameter a byte that decodes to no character: the
    // answer an unknown id or token gets there (API.md: a malformed id in a path is 404).
    let routes = [
        ("GET", "/api/invitations/%ff", 404, "Invitation not found"),
        ("POST", "/api/invitations/%ff/accept", 404, "Invitation not found"),
        ("GET", "/api/orgs/%ff", 404, "Organization not found"),
        ("GET", "/api/orgs/%ff/members", 404, "Organization not found"),
        (
            "PUT",
            "/api/orgs/%ff/members/%C3%28",
            404,
            "Organization not found",
        ),
        (
            "DELETE",
            "/api/orgs/%ff/invitations/x",
            404,
            "Organization not found",
        ),
        ("GET", "/api/news/%ff", 404, "News item not found"),
        ("GET", "/api/auth/magic-link/%ff", 400, "Sign-in link is invalid"),
        (
            "POST",
            "/api/auth/reset-password/%ff",
            400,
            "Reset link is invalid",
        ),
        ("PUT", "/api/users/passkeys/%ff", 404, "Passkey not found"),
        ("DELETE", "/api/users/%ff", 404, "User not found"),
        ("GET", "/api/admin/users/%ff", 404, "User not found"),
        (
            "GET",
            "/api/auth/%ff/start?intent=login",
            404,
            "Sign-in provider not found",
        ),
    ];
    for (method, path, status, message) in routes {
        let answer = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(r#"{"password":"newRiver42x","name":"Key","role":"member"}"#)
            .send()
            .await
            .unwrap();
        let got = answer.status().as_u16();
        let text = answer.text().await.unwrap();
        let body: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("{method} {path}: not the envelope: {text}"));
        assert_eq!(
            (got, body["message"].as_str()),
            (status, Some(message)),
            "{method} {path}: {text}"
        );
    }
    // A query string that does not parse (a field given twice): the start says what it takes,
    // and the callback's popup page tells the opener the sign-in failed.
    let start = "/api/auth/google/start?intent=login&intent=register";
    let body = json_of(app.get(start).await, StatusCode::BAD_REQUEST).await;
    assert_eq!(body["message"], "intent must be login or register");
    let callback = app.get("/api/auth/google/callback?code=a&code=b").await;
    assert_eq!(callback.status(), StatusCode::OK);
    let page = callback.text().await.unwrap();
    assert!(page.contains("google-error"), "{page}");
}
