//! The provider's own small HTML pages (errors, consent, the sign-out question): no script;
//! `http::oidc` serves them with a strict CSP, never cached.

use url::Url;

use super::{BrowserAnswer, authorize::AuthorizeQuery, logout::LogoutQuery};
use crate::{context::Context, html::escape};

/// A form's request carried on as hidden fields, escaped.
fn hidden_fields(fields: &[(&str, String)]) -> String {
    fields
        .iter()
        .map(|(name, value)| {
            format!(
                "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
                escape(value)
            )
        })
        .collect()
}

/// How a page answers: shown (200), the request was not valid (400), or refused (403).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStatus {
    Shown,
    Invalid,
    Refused,
}

/// A page of the provider's own, rendered.
#[derive(Debug)]
pub struct Page {
    pub status: PageStatus,
    pub html: String,
    /// Where its form may end up besides this server (the CSP's `form-action`).
    pub form_action: Option<String>,
}

/// A small page of the provider's own (errors, consent, signed out), no script.
pub(super) fn page(ctx: &Context, status: PageStatus, title: &str, body: &str) -> BrowserAnswer {
    page_posting_to(ctx, status, title, body, None)
}

/// [`page`] whose form may end up at `client_origin` (the consent form redirects there, and
/// browsers hold redirects after a form to its `form-action`).
pub(super) fn page_posting_to(
    ctx: &Context,
    status: PageStatus,
    title: &str,
    body: &str,
    client_origin: Option<&str>,
) -> BrowserAnswer {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{title} | {app}</title><meta name=\"robots\" content=\"noindex\"><style>\
body{{margin:0;font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh}}\
main{{max-width:28rem;margin:1rem;padding:2rem;border-radius:1rem;background:#1e293b}}h1{{margin-top:0;font-size:1.4rem}}\
a{{color:#a5b4fc}}ul{{padding-left:1.2rem}}.row{{display:flex;gap:.75rem;margin-top:1.5rem}}\
button{{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.5rem;border:1px solid #94a3b8;background:transparent;color:#e2e8f0;cursor:pointer}}\
button.primary{{background:#4338ca;border-color:#4338ca;color:#fff}}</style></head><body><main><h1>{title}</h1>{body}</main></body></html>",
        title = escape(title),
        app = escape(&ctx.config.app_name),
    );
    BrowserAnswer::Page(Page {
        status,
        html,
        form_action: client_origin.map(str::to_owned),
    })
}

/// A sign-in request (`/oauth2/authorize`) that cannot be answered at all.
pub(super) fn error_page(ctx: &Context, message: &str) -> BrowserAnswer {
    refusal_page(ctx, "This sign-in link is not valid", message)
}

/// A sign-out request (`/oauth2/logout`) that cannot be answered at all.
pub(super) fn sign_out_error_page(ctx: &Context, message: &str) -> BrowserAnswer {
    refusal_page(ctx, "This sign-out link is not valid", message)
}

fn refusal_page(ctx: &Context, title: &str, message: &str) -> BrowserAnswer {
    page(
        ctx,
        PageStatus::Invalid,
        title,
        &format!(
            "<p>{}</p><p><a href=\"{}\">Go to {}</a></p>",
            escape(message),
            escape(&ctx.config.platforms.main),
            escape(&ctx.config.app_name)
        ),
    )
}

fn scope_words(scope: &str) -> &'static str {
    match scope {
        "openid" => "Know who you are on Talent Suite (your account id and role)",
        "email" => "See your email address",
        "organizations" => "See your organizations and your role in each",
        _ => "See your name",
    }
}

pub(super) fn consent_page(
    ctx: &Context,
    client_name: &str,
    scopes: &[&str],
    query: &AuthorizeQuery,
    redirect_uri: &str,
) -> BrowserAnswer {
    let items: String = scopes
        .iter()
        .map(|s| format!("<li>{}</li>", escape(scope_words(s))))
        .collect();
    let hidden = hidden_fields(&query.pairs());
    let body = format!(
        "<p><strong>{client}</strong> wants to use your {app} account to sign you in. It will be able to:</p><ul>{items}</ul>\
<form method=\"post\" action=\"/oauth2/authorize/consent\">{hidden}\
<div class=\"row\"><button class=\"primary\" type=\"submit\" name=\"decision\" value=\"allow\">Allow</button>\
<button type=\"submit\" name=\"decision\" value=\"deny\">Deny</button></div></form>\
<p><small>You can take this back at any time on your Security page.</small></p>",
        client = escape(client_name),
        app = escape(&ctx.config.app_name),
    );
    let origin = Url::parse(redirect_uri)
        .ok()
        .map(|u| u.origin().ascii_serialization());
    page_posting_to(
        ctx,
        PageStatus::Shown,
        &format!("Allow {client_name}?"),
        &body,
        origin.as_deref(),
    )
}

/// "Sign out of Talent Suite?", posting the request back to itself with `confirm=yes`.
pub(super) fn logout_confirmation(
    ctx: &Context,
    query: &LogoutQuery,
    client_id: Option<&str>,
    client_name: Option<&str>,
) -> BrowserAnswer {
    let mut fields = vec![("confirm", "yes".to_owned())];
    if let Some(id) = client_id {
        fields.push(("client_id", id.to_owned()));
    }
    if let Some(uri) = &query.post_logout_redirect_uri {
        fields.push(("post_logout_redirect_uri", uri.clone()));
    }
    if let Some(client_state) = &query.state {
        fields.push(("state", client_state.clone()));
    }
    let hidden = hidden_fields(&fields);
    let asked_by = client_name.map_or_else(String::new, |name| {
        format!("<p><strong>{}</strong> asked to sign you out.</p>", escape(name))
    });
    let body = format!(
        "{asked_by}<p>Do you want to sign out of {app} on this browser?</p>\
<form method=\"post\" action=\"/oauth2/logout\">{hidden}\
<div class=\"row\"><button class=\"primary\" type=\"submit\">Sign out</button>\
<a href=\"{home}\">Stay signed in</a></div></form>",
        app = escape(&ctx.config.app_name),
        home = escape(&ctx.config.platforms.main),
    );
    let origin = query
        .post_logout_redirect_uri
        .as_deref()
        .and_then(|uri| Url::parse(uri).ok())
        .map(|u| u.origin().ascii_serialization());
    page_posting_to(
        ctx,
        PageStatus::Shown,
        &format!("Sign out of {}?", ctx.config.app_name),
        &body,
        origin.as_deref(),
    )
}

/// The page a form from elsewhere gets.
pub fn refused_form(ctx: &Context) -> BrowserAnswer {
    page(
        ctx,
        PageStatus::Refused,
        "Request refused",
        "<p>This form can only be sent from its own page.</p>",
    )
}
