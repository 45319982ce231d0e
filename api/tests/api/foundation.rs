//! The ground every feature stands on: health, the envelope, readiness, configuration,
//! the GraphQL endpoint and the exported schema.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, json_of};

db_test! {
    async fn the_process_and_its_database_report_healthy(app: TestApp) {
        let live = json_of(app.get("/healthz").await, StatusCode::OK).await;
        assert_eq!(live["status"], "ok");
        let ready = json_of(app.get("/readyz").await, StatusCode::OK).await;
        assert_eq!(ready["status"], "ready");
    }
}

db_test! {
    async fn readiness_fails_with_503_once_the_database_is_gone(app: TestApp) {
        app.db.close_by_ref().await.expect("close the pool");
        let ready = json_of(app.get("/readyz").await, StatusCode::SERVICE_UNAVAILABLE).await;
        assert_eq!(ready["status"], "unavailable");
        // The process itself is still up, and API calls fail cleanly rather than hang.
        assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
        let body = json_of(app.login("a@b.io", "whatever").await, StatusCode::SERVICE_UNAVAILABLE).await;
        assert_eq!(body["success"], false);
        assert_eq!(body["code"], "UNAVAILABLE");
    }
}

db_test! {
    async fn malformed_json_gets_a_400_in_the_envelope(app: TestApp) {
        let response = app
            .client
            .post(app.url("/api/auth/login"))
            .header("content-type", "application/json")
            .body("{\"email\": ")
            .send()
            .await
            .unwrap();
        let body = json_of(response, StatusCode::BAD_REQUEST).await;
        assert_eq!(body, json!({
            "success": false,
            "message": "The request body is not valid JSON",
            "code": "BAD_USER_INPUT",
        }));
    }
}

db_test! {
    async fn a_body_that_is_not_an_object_or_has_wrong_types_gets_a_400(app: TestApp) {
        let body = json_of(app.post("/api/auth/login", json!([1, 2])).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["message"], "The request body must be a JSON object");
        let body = json_of(
            app.post("/api/auth/login", json!({ "email": 42, "password": "x" })).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(body["code"], "BAD_USER_INPUT");
        assert_eq!(body["errors"]["email"], "email has the wrong type");
        // Every field of the wrong type at once, nested ones too, as other field errors are.
        let token = app.signed_up("types@example.com").await;
        let profile = json!({ "name": 1, "bio": [], "preferences": { "notifications": { "email": "yes" } } });
        let body = json_of(app.put_as(&token, "/api/users/profile", profile).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"], json!({
            "name": "name has the wrong type",
            "bio": "bio has the wrong type",
            "preferences.notifications.email": "preferences.notifications.email has the wrong type",
        }));
        assert_eq!(body["message"], "name has the wrong type");
    }
}

db_test! {
    async fn an_oversized_body_gets_a_413_in_the_envelope(app: TestApp) {
        let big = "a".repeat(70 * 1024);
        let response = app.post("/api/auth/login", json!({ "email": big })).await;
        let body = json_of(response, StatusCode::PAYLOAD_TOO_LARGE).await;
        assert_eq!(body["success"], false);
        assert_eq!(body["message"], "The request body is too large (64 KiB at most)");
    }
}

db_test! {
    async fn an_unknown_api_path_gets_a_json_404(app: TestApp) {
        let body = json_of(app.get("/api/no/such/thing").await, StatusCode::NOT_FOUND).await;
        assert_eq!(body["code"], "NOT_FOUND");
        assert_eq!(body["success"], false);
        let response = app.client.delete(app.url("/api/auth/login")).send().await.unwrap();
        let body = json_of(response, StatusCode::METHOD_NOT_ALLOWED).await;
        assert_eq!(body["success"], false);
    }
}

db_test! {
    async fn graphql_answers_queries_and_reports_codes_in_extensions(app: TestApp) {
        let body = app.graphql(None, "{ me { id } }", json!({})).await;
        assert_eq!(body["errors"][0]["message"], "Session expired or unauthorized");
        assert_eq!(body["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");
        let body = app
            .graphql(None, "mutation($i: LoginInput!) { login(input: $i) { token } }", json!({ "i": { "email": "nope" } }))
            .await;
        assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
        assert_eq!(body["errors"][0]["extensions"]["errors"]["email"], "Invalid email format");
        assert_eq!(body["errors"][0]["extensions"]["errors"]["password"], "Password is required");
        // What the parser or the validator refuses is bad input too, with its code: a wrong
        // type, a field the schema lacks, a variable never declared, a document cut short,
        // over POST and over GET.
        for document in [
            "mutation { createOrganization(input: { name: 5 }) { message } }",
            "{ nope }",
            "query($i: Int!) { news(first: $j) { nextCursor } }",
            "{ news( ",
        ] {
            let body = app.graphql(None, document, json!({})).await;
            let errors = body["errors"].as_array().unwrap_or_else(|| panic!("{document}: {body}"));
            assert!(!errors.is_empty(), "{document}");
            for error in errors {
                assert_eq!(error["extensions"]["code"], "BAD_USER_INPUT", "{document}: {error}");
            }
        }
        let body: Value = app.get("/api/graphql?query=%7B%20nope%20%7D").await.json().await.unwrap();
        assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "{body}");
    }
}

db_test! {
    async fn graphql_refuses_mutations_over_get_and_malformed_bodies(app: TestApp) {
        let response = app.get("/api/graphql?query=mutation%7Blogout%7Bmessage%7D%7D").await;
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        let response = app
            .client
            .post(app.url("/api/graphql"))
            .header("content-type", "application/json")
            .body("not json")
            .send()
            .await
            .unwrap();
        let body = json_of(response, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
        // A GET without a query is told where the query goes; one whose variables are not
        // JSON is told that instead.
        let body = json_of(app.get("/api/graphql").await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["errors"][0]["message"], "Pass the query as ?query=…");
        let body = json_of(
            app.get("/api/graphql?query=%7Bnews%7D&variables=notjson").await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(
            body["errors"][0]["message"],
            "variables and extensions must be JSON objects (URL-encoded)"
        );
    }
}

db_test! {
    async fn every_response_carries_a_request_id_and_security_headers(app: TestApp) {
        let response = app.get("/healthz").await;
        assert!(response.headers().contains_key("x-request-id"));
        assert_eq!(response.headers()["x-content-type-options"], "nosniff");
        assert_eq!(response.headers()["x-frame-options"], "DENY");
    }
}

db_test! {
    async fn metrics_are_exposed_in_prometheus_text(app: TestApp) {
        app.get("/healthz").await;
        let response = app.get("/metrics").await;
        assert_eq!(response.status(), StatusCode::OK);
        let text = response.text().await.unwrap();
        assert!(text.contains("http_requests_total"), "{text}");
    }
}

#[tokio::test]
async fn graphiql_is_served_only_under_local() {
    let local = TestApp::spawn(Backend::Sqlite).await;
    let page = local
        .client
        .get(local.url("/api/graphql"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().to_lowercase().contains("graphiql"));

    let staging = TestApp::builder(Backend::Sqlite)
        .env("APP_ENV", "staging")
        .start()
        .await;
    let page = staging
        .client
        .get(staging.url("/api/graphql"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    // No GraphiQL outside local: a GET without a query is a bad request like any other.
    assert_eq!(page.status(), StatusCode::BAD_REQUEST);
    assert!(!page.text().await.unwrap().to_lowercase().contains("graphiql"));
    assert_eq!(
        staging.get("/dev/mailbox").await.status(),
        StatusCode::NOT_FOUND,
        "falls through to the site, which has no such page"
    );
    assert!(
        !staging
            .get("/dev/mailbox")
            .await
            .text()
            .await
            .unwrap()
            .contains("Dev mailbox")
    );
}

#[test]
fn the_checked_in_schema_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../schema.graphql");
    let checked_in = std::fs::read_to_string(path).expect("schema.graphql at the repo root");
    assert!(
        checked_in == api::graphql::sdl(),
        "schema.graphql is out of date: run `cargo run -p api -- export-schema --out schema.graphql`"
    );
}

fn run_binary(vars: &[(&str, &str)]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("serve")
        .current_dir(dir.path())
        .env_clear()
        .envs(vars.iter().copied())
        .output()
        .expect("run the server binary")
}

#[test]
fn the_server_refuses_to_start_without_required_configuration() {
    let output = run_binary(&[]);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).lines().next(),
        Some("Missing required environment variable: APP_ENV")
    );

    let output = run_binary(&[("APP_ENV", "local"), ("APP_NAME", "Talent Suite")]);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).lines().next(),
        Some("Missing required environment variable: JWT_SECRET")
    );
}

#[test]
fn production_refuses_a_short_jwt_secret() {
    let output = run_binary(&[
        ("APP_ENV", "production"),
        ("APP_NAME", "Talent Suite"),
        ("JWT_SECRET", "too-short"),
        ("MAIN_PLATFORM_URL", "https://talent.example"),
        ("HIRE_PLATFORM_URL", "https://hire.talent.example"),
        ("CAMPUS_PLATFORM_URL", "https://campus.talent.example"),
        ("CAREER_PLATFORM_URL", "https://career.talent.example"),
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("JWT_SECRET") && stderr.contains("at least 32 bytes"),
        "{stderr}"
    );
}

#[test]
fn export_schema_prints_the_sdl_or_writes_it_to_a_file() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("export-schema")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), api::graphql::sdl());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("schema.graphql");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args(["export-schema", "--out"])
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(file).unwrap(), api::graphql::sdl());
}

/// A built site with prerendered pages, as `client/scripts/prerender.mjs` writes it.
fn prerendered_site() -> tempfile::TempDir {
    let dist = tempfile::tempdir().unwrap();
    let page = |title: &str, body: &str| {
        format!(
            "<!doctype html>\n<html lang=\"en\">\n<head><title>{title}</title>\
             <link rel=\"canonical\" href=\"__TS_MAIN_PLATFORM_URL__/about\" />\
             <script id=\"app-config\" type=\"application/json\"><!--APP_CONFIG--></script></head>\
             <body><div id=\"root\" data-prerendered>{body}</div></body></html>"
        )
    };
    std::fs::write(
        dist.path().join("index.html"),
        "<!doctype html>\n<html lang=\"en\"><head><title>Shell</title>\
         <script id=\"app-config\" type=\"application/json\"><!--APP_CONFIG--></script></head>\
         <body><div id=\"root\"></div></body></html>",
    )
    .unwrap();
    let pages = dist.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    let files = [
        (
            "home.html",
            page("__TS_APP_NAME__", "<h1>Home of __TS_APP_NAME__</h1>"),
        ),
        (
            "about.html",
            page(
                "About Us | __TS_APP_NAME__",
                "<a href=\"__TS_HIRE_PLATFORM_URL__\">Hire</a>",
            ),
        ),
        (
            "reset.html",
            page("Reset Password | __TS_APP_NAME__", "<h1>Reset Password</h1>"),
        ),
        (
            "404.html",
            page("Page Not Found | __TS_APP_NAME__", "<h1>Page not found</h1>"),
        ),
    ];
    for (name, html) in files {
        std::fs::write(pages.join(name), html).unwrap();
    }
    std::fs::write(
        pages.join("manifest.json"),
        r#"{"routes": {"/": "home.html", "/about": "about.html", "/reset-password/:token": "reset.html"}, "notFound": "404.html"}"#,
    )
    .unwrap();
    dist
}

#[tokio::test]
async fn each_public_route_gets_its_prerendered_page_filled_with_the_settings() {
    let dist = prerendered_site();
    let app = TestApp::builder(Backend::Sqlite)
        .env("CLIENT_DIST_DIR", dist.path().to_str().unwrap())
        .env("APP_NAME", "Talent & <Suite>")
        .start()
        .await;

    let home = app.get("/").await;
    assert_eq!(home.status(), StatusCode::OK);
    assert_eq!(home.headers()["cache-control"], "no-cache");
    assert_eq!(home.headers()["vary"], "Cookie");
    let home = home.text().await.unwrap();
    assert!(
        home.contains("<title>Talent &amp; &lt;Suite&gt;</title>"),
        "{home}"
    );
    assert!(
        home.contains("<h1>Home of Talent &amp; &lt;Suite&gt;</h1>"),
        "{home}"
    );
    assert!(
        home.contains("<link rel=\"canonical\" href=\"http://main.test/about\" />"),
        "{home}"
    );
    assert!(
        home.contains("\"VITE_APP_NAME\":\"Talent & \\u003cSuite>\""),
        "{home}"
    );
    assert!(!home.contains("__TS_"), "every placeholder is filled: {home}");

    // A trailing slash is the same page; a `:param` page answers for any value of it.
    let about = app.get("/about/").await.text().await.unwrap();
    assert!(
        about.contains("<title>About Us | Talent &amp; &lt;Suite&gt;</title>"),
        "{about}"
    );
    assert!(about.contains("href=\"http://hire.test\""), "{about}");
    let reset = app.get("/reset-password/a-token").await;
    assert_eq!(reset.status(), StatusCode::OK);
    assert!(reset.text().await.unwrap().contains("<h1>Reset Password</h1>"));

    // Routes with nothing prerendered get the bare page; unknown paths the 404 page.
    for path in [
        "/profile",
        "/security",
        "/news/0b7c1c7e-3d39-4a8e-9a53-8a2f0f2a1b11",
        "/verify-otp",
        "/index.html",
    ] {
        let shell = app.get(path).await;
        assert_eq!(shell.status(), StatusCode::OK, "{path}");
        assert!(
            shell.text().await.unwrap().contains("<title>Shell</title>"),
            "{path}"
        );
    }
    for path in [
        "/no-such-page",
        "/about/more",
        "/reset-password/a/b",
        "/pages/home.html",
        "/pages/manifest.json",
    ] {
        let missing = app.get(path).await;
        assert_eq!(missing.status(), StatusCode::NOT_FOUND, "{path}");
        let body = missing.text().await.unwrap();
        assert!(body.contains("<h1>Page not found</h1>"), "{path}: {body}");
        assert!(!body.contains("__TS_"), "{path}");
    }

    // A browser holding a session cookie gets the page marked, so its header waits for the
    // session check instead of showing Sign In first.
    let signed_in = app
        .client
        .get(app.url("/about"))
        .header("cookie", "theme=dark; ts_session=some-token")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        signed_in.contains("<html lang=\"en\" data-signed-in>"),
        "{signed_in}"
    );
    assert!(!about.contains("data-signed-in"), "{about}");
}

#[tokio::test]
async fn the_site_is_served_with_its_configuration_and_falls_back_to_the_spa() {
    let dist = tempfile::tempdir().unwrap();
    std::fs::write(
        dist.path().join("index.html"),
        "<html><head><script id=\"app-config\" type=\"application/json\"><!--APP_CONFIG--></script></head><body></body></html>",
    )
    .unwrap();
    std::fs::create_dir(dist.path().join("assets")).unwrap();
    std::fs::write(dist.path().join("assets/index-abc123.js"), "console.info('hi')").unwrap();
    let app = TestApp::builder(Backend::Sqlite)
        .env("CLIENT_DIST_DIR", dist.path().to_str().unwrap())
        .start()
        .await;

    for path in [
        "/",
        "/platforms/hire",
        "/reset-password/some-token",
        "/news/0b7c1c7e-3d39-4a8e-9a53-8a2f0f2a1b11",
        "/index.html",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(response.headers().contains_key("content-security-policy"));
        let html = response.text().await.unwrap();
        assert!(
            html.contains("\"VITE_MAIN_PLATFORM_URL\":\"http://main.test\""),
            "{html}"
        );
        assert!(html.contains("\"VITE_API_BASE_URL\":\"/api\""));
        assert!(!html.contains("<!--APP_CONFIG-->"));
    }
    let asset = app.get("/assets/index-abc123.js").await;
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let api = app.get("/api/unknown").await;
    assert_eq!(api.status(), StatusCode::NOT_FOUND);
    assert_eq!(api.headers()["content-type"], "application/json");

    // A path the site has no page for is a real 404, still with the page (it shows "not found").
    for path in ["/no-such-page", "/platforms/nope", "/reset-password/a/b"] {
        let missing = app.get(path).await;
        assert_eq!(missing.status(), StatusCode::NOT_FOUND, "{path}");
        assert!(
            missing.text().await.unwrap().contains("VITE_MAIN_PLATFORM_URL"),
            "{path}"
        );
    }
    // Paths no file system takes (a NUL, a name past 255 bytes) are missing pages too, by GET
    // and by HEAD: the file server's refusal was a bare 500.
    let long = "a".repeat(256);
    let long_accented = "%C3%A9".repeat(128);
    for path in [
        "/%00".to_owned(),
        "/login%00".to_owned(),
        "/assets/%00.js".to_owned(),
        format!("/{long}"),
        format!("/assets/{long}.js"),
        format!("/{long_accented}"),
    ] {
        for method in [reqwest::Method::GET, reqwest::Method::HEAD] {
            let response = app
                .client
                .request(method.clone(), app.url(&path))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::NOT_FOUND, "{method} {path}");
            assert_eq!(
                response.headers()["content-type"],
                "text/html; charset=utf-8",
                "{method} {path}"
            );
        }
    }
    // A page is only read: a form posted to one is told so, not answered with nothing.
    for path in ["/", "/login", "/no-such-page"] {
        let response = app.client.post(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{path}");
        assert_eq!(response.headers()["allow"], "GET, HEAD");
        assert!(response.text().await.unwrap().contains("only read"), "{path}");
    }
}

db_test! {
    async fn robots_and_the_sitemap_list_the_public_pages_of_the_main_platform(app: TestApp) {
        let robots = app.get("/robots.txt").await;
        assert_eq!(robots.status(), StatusCode::OK);
        let robots = robots.text().await.unwrap();
        assert!(robots.contains("Sitemap: http://main.test/sitemap.xml"), "{robots}");
        assert!(robots.contains("Disallow: /profile"));
        let sitemap = app.get("/sitemap.xml").await;
        assert_eq!(sitemap.headers()["content-type"], "application/xml; charset=utf-8");
        let sitemap = sitemap.text().await.unwrap();
        for page in ["http://main.test/", "http://main.test/platforms/hire", "http://main.test/about"] {
            assert!(sitemap.contains(&format!("<loc>{page}</loc>")), "{sitemap}");
        }
        assert!(!sitemap.contains("/profile"));
    }
}

db_test! {
    async fn the_openapi_document_lists_every_rest_route_and_each_one_answers(app: TestApp) {
        let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
        assert_eq!(doc["openapi"], "3.1.0");
        // A write can meet a deletion that commits while it runs (a sign-in as its account goes).
        assert!(doc["paths"]["/auth/login"]["post"]["responses"]["409"].is_object());
        assert!(doc["paths"]["/news"]["get"]["responses"]["409"].is_null());
        let paths = doc["paths"].as_object().unwrap();
        let mut operations = 0;
        for (path, methods) in paths {
            let concrete = path
                .replace("{token}", "some-token")
                .replace("{id}", &uuid::Uuid::new_v4().to_string())
                .replace("{userId}", &uuid::Uuid::new_v4().to_string())
                .replace("{invitationId}", &uuid::Uuid::new_v4().to_string());
            for method in methods.as_object().unwrap().keys() {
                operations += 1;
                let request = match method.as_str() {
                    "get" => app.client.get(app.url(&format!("/api{concrete}"))),
                    "post" => app.client.post(app.url(&format!("/api{concrete}"))).json(&json!({})),
                    "put" => app.client.put(app.url(&format!("/api{concrete}"))).json(&json!({})),
                    "delete" => app.client.delete(app.url(&format!("/api{concrete}"))),
                    other => panic!("unexpected method {other}"),
                };
                let response = request.send().await.unwrap();
                assert_ne!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
                let body: serde_json::Value = response.json().await.unwrap();
                assert_ne!(body["message"], "There is no API endpoint at this path", "{method} {path}");
                assert!(body["success"].is_boolean(), "{method} {path}: {body}");
            }
        }
        assert_eq!(
            operations, 68,
            "SPEC.md section 7's calls, GET /news/{{id}}, the two Google calls, the password change, the three session calls, the four two-factor calls, reauthenticate, API.md's thirteen organization calls and declining an invitation, the two sign-in link calls and the link's page check, the seven passkey calls, the five provider calls and the twelve admin console calls"
        );
    }
}

/// Every string a request must carry says what an acceptable one is (a length, a pattern, a
/// format or a list), so a client and the contract fuzzer can tell a good value from a bad one
/// without sending it: an empty required string is invalid by the document, as by the server.
#[tokio::test]
async fn the_openapi_document_states_the_rules_of_every_required_string() {
    let app = TestApp::builder(Backend::Sqlite).start().await;
    let doc = json_of(app.get("/api/openapi.json").await, StatusCode::OK).await;
    let mut checked = 0;
    let mut bare = Vec::new();
    for (path, methods) in doc["paths"].as_object().unwrap() {
        for (method, operation) in methods.as_object().unwrap() {
            let body = &operation["requestBody"]["content"]["application/json"]["schema"];
            let Some(properties) = body["properties"].as_object() else {
                continue;
            };
            let required: Vec<&str> = body["required"]
                .as_array()
                .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            for name in required {
                let field = &properties[name];
                if field["type"] != "string" {
                    continue;
                }
                checked += 1;
                // A length alone is a rule too (a field whose blank value is refused by name).
                let stated = field["minLength"].as_u64().is_some_and(|n| n >= 1)
                    || field.get("maxLength").is_some()
                    || field.get("pattern").is_some()
                    || field.get("format").is_some();
                if !stated {
                    bare.push(format!("{method} {path} {name}"));
                }
            }
            for param in operation["parameters"].as_array().into_iter().flatten() {
                if param["name"] == "cursor" {
                    assert!(
                        param["schema"]["pattern"].is_string(),
                        "{method} {path}: the cursor's shape"
                    );
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} required strings found");
    assert!(bare.is_empty(), "required strings with no stated rule: {bare:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_is_limited_per_route_with_retry_after() {
    let app = TestApp::builder(Backend::Sqlite)
        .env("RATE_LIMIT_PER_IP", "5")
        .start()
        .await;
    for _ in 0..5 {
        assert_eq!(
            app.get("/api/auth/verify").await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
    let response = app.get("/api/auth/verify").await;
    assert!(response.headers().contains_key("retry-after"));
    let body = json_of(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(body["code"], "RATE_LIMITED");
    // Another route, and the site's health, are counted apart.
    assert_eq!(app.get("/api/news").await.status(), StatusCode::OK);
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

db_test! {
    async fn housekeeping_removes_expired_sessions_and_keeps_live_ones(app: TestApp) {
        let live = app.signed_up("keep@example.com").await;
        let stale = json_of(app.login("keep@example.com", crate::helpers::PASSWORD).await, StatusCode::OK).await["data"]["token"]
            .as_str()
            .unwrap()
            .to_owned();
        app.sql("UPDATE sessions SET expires_at = created_at WHERE id = (SELECT id FROM sessions ORDER BY created_at DESC LIMIT 1)").await;
        let removed = api::janitor::sweep(&app.db, chrono::Duration::days(7)).await.unwrap();
        assert!(removed >= 1);
        json_of(app.get_as(&live, "/api/auth/verify").await, StatusCode::OK).await;
        json_of(app.get_as(&stale, "/api/auth/verify").await, StatusCode::UNAUTHORIZED).await;
    }
}

#[tokio::test]
async fn sqlite_runs_in_wal_mode_with_foreign_keys() {
    use sea_orm::{ConnectionTrait, Statement};
    let app = TestApp::spawn(Backend::Sqlite).await;
    let pragma = |name: &'static str| {
        let db = app.db.clone();
        async move {
            let row = db
                .query_one_raw(Statement::from_string(
                    db.get_database_backend(),
                    format!("PRAGMA {name}"),
                ))
                .await
                .unwrap()
                .unwrap();
            row.try_get_by_index::<String>(0)
                .or_else(|_| row.try_get_by_index::<i64>(0).map(|n| n.to_string()))
                .unwrap()
        }
    };
    assert_eq!(pragma("journal_mode").await, "wal");
    assert_eq!(pragma("foreign_keys").await, "1");
    // No `busy_timeout`: a busy handler of our own waits for another connection's write
    // (`db::tests::a_write_waits_for_another_connections_transaction_instead_of_failing`).
    // No checkpoint inside a commit: the served instance checkpoints on a task of its own (the
    // next test).
    assert_eq!(pragma("wal_autocheckpoint").await, "0");
}

/// What a served instance commits reaches the SQLite file itself, not only its write-ahead log,
/// within moments and without a thousand pages of writes first: a copy of the file alone (a
/// backup that leaves the log out, say) holds an account made a moment before.
#[tokio::test]
async fn a_served_sqlite_instance_copies_its_log_into_the_database_file_within_moments() {
    use std::time::{Duration, Instant};
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.signed_up("filed@example.com").await;
    let file = app
        .database_url
        .trim_start_matches("sqlite://")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let copies = tempfile::tempdir().unwrap();
    let started = Instant::now();
    for n in 0.. {
        // A copy taken while a checkpoint writes may be torn: it counts as not there yet.
        let copy = copies.path().join(format!("copy-{n}.db"));
        std::fs::copy(&file, &copy).unwrap();
        let accounts = match sea_orm::Database::connect(format!("sqlite://{}?mode=rw", copy.display())).await
        {
            Ok(db) => {
                let found = crate::helpers::try_count(
                    &db,
                    "SELECT COUNT(*) FROM users WHERE email = 'filed@example.com'",
                )
                .await;
                db.close().await.ok();
                found
            }
            Err(_) => None,
        };
        if accounts == Some(1) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the database file alone still lacks the account after 10 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

db_test! {
    async fn every_call_that_needs_a_session_or_an_admin_says_so(app: TestApp) {
        use reqwest::Method;
        let id = uuid::Uuid::new_v4();
        let needs_session = [
            (Method::GET, "/api/auth/verify".to_owned()),
            (Method::GET, "/api/users/profile".to_owned()),
            (Method::PUT, "/api/users/profile".to_owned()),
            (Method::PUT, "/api/users/password".to_owned()),
            (Method::GET, "/api/users/sessions".to_owned()),
            (Method::DELETE, "/api/users/sessions".to_owned()),
            (Method::DELETE, format!("/api/users/sessions/{id}")),
            (Method::POST, "/api/users/two-factor/setup".to_owned()),
            (Method::POST, "/api/users/two-factor/confirm".to_owned()),
            (Method::POST, "/api/users/two-factor/disable".to_owned()),
            (Method::POST, "/api/auth/reauthenticate".to_owned()),
            (Method::DELETE, format!("/api/users/{id}")),
        ];
        let admin_only = [
            (Method::POST, "/api/news".to_owned()),
            (Method::PUT, format!("/api/news/{id}")),
            (Method::DELETE, format!("/api/news/{id}")),
        ];
        let send = |method: Method, path: &str, token: Option<&str>| {
            let mut request = app.client.request(method.clone(), app.url(path));
            if method != Method::GET && method != Method::DELETE {
                request = request.json(&json!({}));
            }
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            request.send()
        };
        for (method, path) in needs_session.iter().chain(&admin_only) {
            let body = json_of(send(method.clone(), path, None).await.unwrap(), StatusCode::UNAUTHORIZED).await;
            assert_eq!(body["code"], "UNAUTHENTICATED", "{method} {path}: {body}");
        }
        let member = app.signed_up("plain@example.com").await;
        for (method, path) in &admin_only {
            let body = json_of(send(method.clone(), path, Some(&member)).await.unwrap(), StatusCode::FORBIDDEN).await;
            assert_eq!(body["code"], "FORBIDDEN", "{method} {path}: {body}");
        }
        // GraphQL: the same rules, as extensions.code.
        let person_only = [
            "{ me { id } }",
            "{ sessions { id } }",
            "{ authorizedApplications { clientId } }",
            "mutation { revokeApplication(clientId: \"x\") { message } }",
            "mutation { reauthenticate(input: {}) { message } }",
        ];
        let admin_ops = [
            "{ oauthClients { clientId } }",
            "{ auditEvents(first: 1) { nextCursor } }",
            "mutation { createOAuthClient(input: { name: \"X\", redirectUris: [\"https://x.example/cb\"] }) { clientSecret } }",
            "mutation { rotateOAuthClientSecret(clientId: \"x\") { clientSecret } }",
            "mutation { deleteOAuthClient(clientId: \"x\") { message } }",
        ];
        for query in person_only.iter().chain(&admin_ops) {
            let body = app.graphql(None, query, json!({})).await;
            assert_eq!(body["errors"][0]["extensions"]["code"], "UNAUTHENTICATED", "{query}: {body}");
        }
        for query in admin_ops {
            let body = app.graphql(Some(&member), query, json!({})).await;
            assert_eq!(body["errors"][0]["extensions"]["code"], "FORBIDDEN", "{query}: {body}");
        }
        assert_eq!(app.count("SELECT COUNT(*) FROM oauth_clients").await, 0, "nothing was created");
    }
}

/// sqlx 0.9.0 leaves Nagle's algorithm on: a statement written in two pieces (over TLS, one
/// beyond a 16 KiB record) waited 40 ms for the server's acknowledgement of the first. Each
/// pooled PostgreSQL connection's socket sends without waiting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_connections_send_each_statement_without_waiting() {
    use std::{collections::HashSet, mem::ManuallyDrop, net::TcpStream, os::fd::FromRawFd};

    use sea_orm::{ConnectionTrait, Statement};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    // Statements at once, so that several of the pool's connections answer.
    let ports = futures::future::join_all((0..8).map(|_| {
        app.db.query_one_raw(Statement::from_string(
            app.db.get_database_backend(),
            "SELECT inet_client_port(), inet_server_port(), pg_sleep(0.05)::text",
        ))
    }))
    .await;
    let ports: HashSet<(u16, u16)> = ports
        .into_iter()
        .map(|row| {
            let row = row.unwrap().unwrap();
            let port = |at| u16::try_from(row.try_get_by_index::<i32>(at).unwrap()).unwrap();
            (port(0), port(1))
        })
        .collect();
    assert!(
        ports.len() > 1,
        "one connection answered every statement: {ports:?}"
    );
    let mut checked = HashSet::new();
    for fd in std::fs::read_dir("/proc/self/fd").unwrap().flatten() {
        let Ok(fd) = fd.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        // SAFETY: never dropped, so never closed here; a descriptor that is not a TCP socket
        // has no address.
        let socket = ManuallyDrop::new(unsafe { TcpStream::from_raw_fd(fd) });
        let (Ok(ours), Ok(theirs)) = (socket.local_addr(), socket.peer_addr()) else {
            continue;
        };
        if ports.contains(&(ours.port(), theirs.port())) {
            assert!(
                socket.nodelay().unwrap(),
                "the connection from port {} waits",
                ours.port()
            );
            checked.insert((ours.port(), theirs.port()));
        }
    }
    assert_eq!(checked, ports, "every connection's socket was found");
}

/// The session check keeps a PostgreSQL connection of its own (`db::Held`). When PostgreSQL ends
/// it (here every connection of the app's database, as a failover or an administrator would)
/// while checks arrive, a check that meets the dead connection is answered 503 and the next
/// opens another. When it was ended while idle, as a firewall drops an idle connection, the
/// first check already finds a new one: an idle connection is pinged before use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_checks_are_served_again_after_postgresql_ends_their_connection() {
    use sea_orm::{ConnectionTrait, Statement};

    let Some(app) = TestApp::spawn_postgres().await else {
        return;
    };
    let token = app.signed_up("held@example.com").await;
    let end_every_connection = || async {
        let ended = app
            .db
            .query_one_raw(Statement::from_string(
                app.db.get_database_backend(),
                "SELECT COUNT(pg_terminate_backend(pid))::int FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index::<i32>(0)
            .unwrap();
        assert!(ended >= 1, "no connection of the server's was ended");
    };

    json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
    end_every_connection().await;
    let mut statuses = Vec::new();
    while statuses.last() != Some(&StatusCode::OK) {
        assert!(statuses.len() < 5, "checks stay refused: {statuses:?}");
        let response = app.get_as(&token, "/api/auth/verify").await;
        statuses.push(response.status());
        if response.status() != StatusCode::OK {
            let body = json_of(response, StatusCode::SERVICE_UNAVAILABLE).await;
            assert_eq!(body["code"], "UNAVAILABLE");
        }
    }
    for _ in 0..5 {
        json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
    }

    end_every_connection().await;
    // Longer than the idle time after which a connection is pinged before use (1 s).
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    for _ in 0..3 {
        json_of(app.get_as(&token, "/api/auth/verify").await, StatusCode::OK).await;
    }
}
