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
        let fallback = service_fn(move |_request: Request| {
            let index = index.clone();
            async move { Ok::<_, Infallible>(index_response(&index)) }
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
    // `<` escaped, so no value can close the script element.
    let encoded = values.to_string().replace('<', "\\u003c");
    html.replace(PLACEHOLDER, &encoded)
}
