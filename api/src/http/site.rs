//! The built React site from `client/dist`. Hashed assets are cached for a year. Pages are
//! HTML the build prerendered (`client/scripts/prerender.mjs`, listed in
//! `pages/manifest.json`): each public route has its own, with its content, title,
//! description and canonical link, and every unknown path gets the 404 page with a 404
//! status. Routes with nothing to prerender (the account pages, a news story) get the bare
//! `index.html` and are drawn in the browser. Every page is filled with the server's settings
//! once, at start-up, and is never cached by browsers.

use std::{collections::HashMap, convert::Infallible, path::Path, sync::Arc};

use axum::{
    body::{Body, Bytes},
    extract::Request,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::MethodRouter,
};
use serde::Deserialize;
use serde_json::json;
use tower::{ServiceExt, service_fn, util::BoxCloneSyncService};
use tower_http::services::ServeDir;

use super::{error::status, middleware::CSP};
use crate::{accounts::cookie, config::Config, error::Code, html::escape};

const PLACEHOLDER: &str = "<!--APP_CONFIG-->";
/// Where the build writes the prerendered pages; never served as files.
const PAGES_DIR: &str = "pages";
const NOT_BUILT: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Site not built</title></head>\
<body><main><h1>The site has not been built</h1><p>Run <code>make build-client</code> (or <code>make run</code>) \
and restart the server. The API is up under <code>/api</code>.</p></main></body></html>";

/// `pages/manifest.json`: route → file, and the file of the 404 page.
#[derive(Deserialize)]
struct Manifest {
    routes: HashMap<String, String>,
    #[serde(rename = "notFound")]
    not_found: String,
}

/// One page, as sent to a visitor and as sent to a browser holding a session cookie: the
/// latter's `<html data-signed-in>` keeps the prerendered header's Sign In buttons out of
/// sight until the browser has checked the session (client/src/lib/session.ts).
#[derive(Clone)]
struct Page {
    visitor: Bytes,
    signed_in: Bytes,
}

impl Page {
    fn new(html: String) -> Self {
        let signed_in = html.replacen("<html lang=\"en\"", "<html lang=\"en\" data-signed-in", 1);
        Self {
            visitor: Bytes::from(html),
            signed_in: Bytes::from(signed_in),
        }
    }

    fn response(&self, found: bool, headers: &HeaderMap) -> Response {
        let body = if super::caller::cookie(headers, cookie::NAME).is_some() {
            self.signed_in.clone()
        } else {
            self.visitor.clone()
        };
        let mut response = Response::new(Body::from(body));
        if !found {
            *response.status_mut() = status(Code::NotFound);
        }
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(header::VARY, HeaderValue::from_static("Cookie"));
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
        response
    }
}

/// Every page of the site, filled in and ready to send.
struct Pages {
    /// The bare page the browser draws itself.
    shell: Page,
    /// Prerendered pages by exact path.
    routes: HashMap<String, Page>,
    /// Prerendered pages for `/prefix/:param`, by prefix (`/reset-password/`).
    patterns: Vec<(String, Page)>,
    not_found: Page,
}

impl Pages {
    fn load(config: &Config) -> Self {
        let dir = &config.client_dist_dir;
        let Ok(index) = std::fs::read_to_string(dir.join("index.html")) else {
            tracing::warn!(dir = %dir.display(), "no built site found; serving a placeholder page");
            let page = Page::new(NOT_BUILT.to_owned());
            return Self {
                shell: page.clone(),
                routes: HashMap::new(),
                patterns: Vec::new(),
                not_found: page,
            };
        };
        let shell = Page::new(inject(&index, config));
        let manifest = std::fs::read_to_string(dir.join(PAGES_DIR).join("manifest.json"))
            .map_err(|error| error.to_string())
            .and_then(|text| serde_json::from_str::<Manifest>(&text).map_err(|error| error.to_string()));
        let manifest = match manifest {
            Ok(manifest) => manifest,
            Err(error) => {
                tracing::warn!(%error, "no prerendered pages; every route gets the bare page");
                return Self {
                    not_found: shell.clone(),
                    shell,
                    routes: HashMap::new(),
                    patterns: Vec::new(),
                };
            }
        };
        let read = |file: &str| match std::fs::read_to_string(dir.join(PAGES_DIR).join(file)) {
            Ok(html) => Page::new(inject(&fill(&html, config), config)),
            Err(error) => {
                tracing::warn!(file, %error, "a prerendered page is missing; serving the bare page");
                shell.clone()
            }
        };
        let mut routes = HashMap::new();
        let mut patterns = Vec::new();
        for (route, file) in &manifest.routes {
            match route.split_once("/:") {
                Some((prefix, _)) => patterns.push((format!("{prefix}/"), read(file))),
                None => {
                    routes.insert(route.clone(), read(file));
                }
            }
        }
        Self {
            not_found: read(&manifest.not_found),
            routes,
            patterns,
            shell,
        }
    }

    /// The page for `path`, and whether the site has that page (the 404 page when not).
    fn for_path(&self, path: &str) -> (&Page, bool) {
        let path = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            path
        };
        if let Some(page) = self.routes.get(path) {
            return (page, true);
        }
        let pattern = self.patterns.iter().find(|(prefix, _)| {
            path.strip_prefix(prefix.as_str())
                .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
        });
        if let Some((_, page)) = pattern {
            return (page, true);
        }
        if is_site_route(path) {
            (&self.shell, true)
        } else {
            // The browser's router shows the same 404 page for a path it has no route for.
            (&self.not_found, false)
        }
    }
}

#[derive(Clone)]
pub struct Site {
    dir: std::path::PathBuf,
    pages: Arc<Pages>,
}

impl Site {
    pub fn load(config: &Config) -> Self {
        Self {
            dir: config.client_dist_dir.clone(),
            pages: Arc::new(Pages::load(config)),
        }
    }

    pub fn service(self) -> MethodRouter {
        let pages = self.pages.clone();
        let fallback = service_fn(move |request: Request| {
            let pages = pages.clone();
            async move {
                let (page, found) = pages.for_path(request.uri().path());
                Ok::<_, Infallible>(page.response(found, request.headers()))
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
                let is_page_source = path == "/index.html" || path.starts_with(&format!("/{PAGES_DIR}/"));
                if is_page_source || !could_be_a_file(&path) || !Path::new(&dir).exists() {
                    return fallback.oneshot(request).await;
                }
                let mut response = files.oneshot(request).await.map(IntoResponse::into_response)?;
                if response.status().is_success() && path.starts_with("/assets/") {
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
        let pages_only_read = service_fn(|_: Request| async {
            let mut response = Response::new(Body::from(
                "Method Not Allowed: the site's pages are only read (GET).\n",
            ));
            *response.status_mut() = axum::http::StatusCode::METHOD_NOT_ALLOWED;
            let headers = response.headers_mut();
            headers.insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            Ok::<_, Infallible>(response)
        });
        axum::routing::get_service(BoxCloneSyncService::new(service)).fallback_service(pages_only_read)
    }
}

/// Whether `path` could name a file at all: a segment that decodes to a NUL or is longer than
/// a file name may be (255 bytes) is no file, and the file system's refusal of it would be a
/// 500 from the file server where the person should see the 404 page.
fn could_be_a_file(path: &str) -> bool {
    path.split('/').all(|segment| {
        let decoded: Vec<u8> = percent_encoding::percent_decode_str(segment).collect();
        decoded.len() <= 255 && !decoded.contains(&0)
    })
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
    "/organizations",
    "/admin",
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
        || [
            "/reset-password/",
            "/magic-link/",
            "/news/",
            "/organizations/",
            "/invitations/",
        ]
        .iter()
        .any(|prefix| {
            path.strip_prefix(prefix)
                .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
        })
        // The admin console's sections and a person's page in it (/admin/users/{id}).
        || path.strip_prefix("/admin/").is_some_and(|rest| {
            rest.split('/').count() <= 2 && !rest.split('/').any(str::is_empty)
        })
}

/// `GET /robots.txt`: everything public may be crawled; account pages may not.
pub async fn robots(axum::extract::State(state): axum::extract::State<crate::state::AppState>) -> Response {
    let mut body = String::from("User-agent: *\nAllow: /\n");
    for page in [
        "/profile",
        "/security",
        "/organizations",
        "/admin",
        "/invitations/",
        "/verify-otp",
        "/reset-password",
        "/magic-link/",
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
        body.push_str(&format!("  <url><loc>{}</loc></url>\n", escape(&url)));
    }
    body.push_str("</urlset>\n");
    text(body, "application/xml; charset=utf-8")
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

/// Fills the prerendered pages' placeholders (client/src/entry-server.tsx `PLACEHOLDERS`)
/// with the server's settings, escaped for HTML text and attributes alike.
fn fill(html: &str, config: &Config) -> String {
    let platforms = &config.platforms;
    [
        ("__TS_APP_NAME__", config.app_name.as_str()),
        ("__TS_MAIN_PLATFORM_URL__", platforms.main.as_str()),
        ("__TS_HIRE_PLATFORM_URL__", platforms.hire.as_str()),
        ("__TS_CAMPUS_PLATFORM_URL__", platforms.campus.as_str()),
        ("__TS_CAREER_PLATFORM_URL__", platforms.career.as_str()),
    ]
    .into_iter()
    .fold(html.to_owned(), |html, (placeholder, value)| {
        html.replace(placeholder, &escape(value))
    })
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
    let providers = crate::providers::configured(&config.providers);
    if !providers.is_empty() {
        let names: Vec<&str> = providers.iter().map(|p| p.as_str()).collect();
        values["VITE_SIGN_IN_PROVIDERS"] = json!(names.join(","));
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
