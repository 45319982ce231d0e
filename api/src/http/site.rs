//! The built React site from `client/dist`: hashed assets cached for a year, `index.html`
//! never cached and carrying the client configuration, and every other path falling back
//! to it so the SPA's router decides.

use std::{convert::Infallible, path::Path, sync::Arc};

use axum::{
    body::Body,
    extract::Request,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::MethodRouter,
};
use serde_json::json;
use tower::{ServiceExt, service_fn, util::BoxCloneSyncService};
use tower_http::services::ServeDir;

use super::middleware::CSP;
use crate::config::Config;

const PLACEHOLDER: &str = "<!--APP_CONFIG-->";
const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Site not built</title></head>\
<body><main><h1>The site has not been built</h1><p>Run <code>make build-client</code> (or <code>make run</code>) \
and restart the server. The API is up under <code>/api</code>.</p></main></body></html>";
#[derive(Clone)]
pub struct Site {
    dir: std::path::PathBuf,
    index: Arc<String>,
}

impl Site {
    pub fn load(config: &Config) -> Self {
        let dir = config.client_dist_dir.clone();
        let index = match std::fs::read_to_string(dir.join("index.html")) {
            Ok(html) => inject(&html, config),
            Err(_) => {
                tracing::warn!(dir = %dir.display(), "no built site found; serving a placeholder page");
                NOT_BUILT.to_owned()
            }
        };
        Self {
            dir,
            index: Arc::new(index),
        }
    }

    pub fn service(self) -> MethodRouter {
        let index = self.index.clone();
        let fallback = service_fn(move |request: Request| {
            let index = index.clone();
            // The SPA shows its 404 page for a path it has no route for; the status says so too,
            // so search engines and monitors see a real 404 instead of a soft one.
            let status = if is_site_route(request.uri().path()) {
                StatusCode::OK
            } else {
                StatusCode::NOT_FOUND
            };
            async move {
                let mut response = index_response(&index);
                *response.status_mut() = status;
                Ok::<_, Infallible>(response)
            }
        });
        let files = ServeDir::new(&self.dir)
            .append_index_html_on_directories(false)
            .precompressed_br()
            .precompressed_gzip()
            .fallback(fallback.clone());
        let dir = self.dir.clone();
        let service = service_fn(move |request: Request| {
            let files = files.clone();
            let fallback = fallback.clone();
            let dir = dir.clone();
            async move {
                let path = request.uri().path().to_owned();
                if path == "/index.html" || !Path::new(&dir).exists() {
                    return fallback.oneshot(request).await;
                }
                let mut response = files.oneshot(request).await.map(IntoResponse::into_response)?;
                if response.status() == StatusCode::OK && path.starts_with("/assets/") {
                    response.headers_mut().insert(
                        header::CACHE_CONTROL,
                        HeaderValue::from_static("public, max-age=31536000, immutable"),
                    );
                } else if !response.headers().contains_key(header::CACHE_CONTROL) {
                    response.headers_mut().insert(
                        header::CACHE_CONTROL,
                        HeaderValue::from_static("public, max-age=3600"),
                    );
                }
                Ok::<_, Infallible>(response)
            }
        });
        axum::routing::get_service(BoxCloneSyncService::new(service))
    }
}

/// The public pages, for the sitemap (SPEC.md section 2's route table).
pub const PUBLIC_PAGES: &[&str] = &[
    "/",
    "/about",
    "/contact",
    "/news",
    "/jobs",
    "/solutions",
    "/resources",
    "/company",
    "/platforms/hire",
    "/platforms/campus",
    "/platforms/career",
    "/privacy-policy",
    "/terms-service",
    "/cookie-policy",
    "/login",
    "/register",
];

/// Pages that exist but are personal or transient: routed, never listed or indexed.
const PRIVATE_PAGES: &[&str] = &[
    "/forgot-password",
    "/reset-password",
    "/verify-otp",
    "/profile",
    "/security",
    "/hire",
    "/campus",
    "/career",
    "/accessibility",
    "/status",
];

/// Whether the SPA has a route for `path` (client/src/config/paths.ts).
fn is_site_route(path: &str) -> bool {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    path == "/index.html"
        || PUBLIC_PAGES.contains(&path)
        || PRIVATE_PAGES.contains(&path)
        || ["/reset-password/", "/news/"].iter().any(|prefix| {
            path.strip_prefix(prefix)
                .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
        })
}

/// `GET /robots.txt`: everything public may be crawled; account pages may not.
pub async fn robots(axum::extract::State(state): axum::extract::State<crate::state::AppState>) -> Response {
    let mut body = String::from("User-agent: *\nAllow: /\n");
    for page in [
        "/profile",
        "/security",
        "/verify-otp",
        "/reset-password",
        "/forgot-password",
        "/api/",
        "/dev/",
    ] {
        body.push_str(&format!("Disallow: {page}\n"));
    }
    body.push_str(&format!("Sitemap: {}/sitemap.xml\n", state.config.platforms.main));
    text(body, "text/plain; charset=utf-8")
}

/// `GET /sitemap.xml`: the public pages, as absolute URLs of the main platform.
pub async fn sitemap(axum::extract::State(state): axum::extract::State<crate::state::AppState>) -> Response {
    let mut body = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for page in PUBLIC_PAGES {
        let url = format!("{}{page}", state.config.platforms.main);
        body.push_str(&format!("  <url><loc>{}</loc></url>\n", xml_escape(&url)));
    }
    body.push_str("</urlset>\n");
    text(body, "application/xml; charset=utf-8")
}

fn xml_escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn text(body: String, content_type: &'static str) -> Response {
    let mut response = Response::new(Body::from(body));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

fn index_response(index: &str) -> Response {
    let mut response = Response::new(Body::from(index.to_owned()));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    response
}

/// Writes the client configuration into the page, from the server's own settings.
fn inject(html: &str, config: &Config) -> String {
    let mut values = json!({
        "VITE_API_BASE_URL": "/api",
        "VITE_ENV": config.env.as_str(),
        "VITE_APP_NAME": config.app_name,
        "VITE_DEBUG": if config.debug { "true" } else { "false" },
        "VITE_MAIN_PLATFORM_URL": config.platforms.main,
        "VITE_HIRE_PLATFORM_URL": config.platforms.hire,
        "VITE_CAMPUS_PLATFORM_URL": config.platforms.campus,
        "VITE_CAREER_PLATFORM_URL": config.platforms.career,
    });
    if let Some(client_id) = &config.google.client_id {
        values["VITE_GOOGLE_CLIENT_ID"] = json!(client_id);
    }
    let sign_in = &config.platforms.sign_in;
    for (name, url) in [
        ("VITE_HIRE_SIGN_IN_URL", &sign_in.hire),
        ("VITE_CAMPUS_SIGN_IN_URL", &sign_in.campus),
        ("VITE_CAREER_SIGN_IN_URL", &sign_in.career),
    ] {
        if let Some(url) = url {
            values[name] = json!(url);
        }
    }
    // `<` escaped, so no value can close the script element.
    let encoded = values.to_string().replace('<', "\\u003c");
    html.replace(PLACEHOLDER, &encoded)
}
