//! `/admin/*`: the admin console's calls. Admins only (401 signed out, 403 otherwise); every
//! action is audited with the acting admin.

use axum::{
    body::Body,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::json;

use super::{
    envelope::{Answer, Reply},
    input::{Input, Params, Segments},
    openapi::{self, cursor_param, limit_param, nullable_string, object, ok, operation, prose, string},
    routes::Routes,
};
use crate::{
    accounts::sessions::Viewer,
    admin::{
        MAX_QUERY,
        audit_log::{self, ExportForm, LogForm},
        orgs::{self, OrgSearchForm},
        users::{self, Listed, RoleForm, SearchForm, SuspendForm},
    },
    graphql::{
        audit::AuditEvent,
        organizations::Organization,
        passkeys::Passkey,
        providers::Identity,
        types::{Session, User, rfc3339_opt},
    },
    http::{caller::Caller, error::ErrorResponse},
    state::AppState,
};

/// `GET /admin/users/{id}`'s data: the account, and each of its parts the console shows.
fn person_page() -> serde_json::Value {
    let list = |schema: &str| json!({ "type": "array", "items": { "$ref": format!("#/components/schemas/{schema}") } });
    // The person's own role in each organization they belong to.
    let membership = object(
        &[
            ("id", json!({ "type": "string", "format": "uuid" })),
            ("name", openapi::string()),
            ("kind", json!({ "enum": ["hire", "campus"] })),
            ("role", json!({ "enum": ["owner", "admin", "member", null] })),
        ],
        &["id", "name", "kind", "role"],
    );
    object(
        &[
            ("user", json!({ "$ref": "#/components/schemas/AdminUser" })),
            ("sessions", list("Session")),
            ("organizations", json!({ "type": "array", "items": membership })),
            ("identities", list("Identity")),
            ("passkeys", list("Passkey")),
            ("audit", list("AuditEvent")),
        ],
        &[
            "user",
            "sessions",
            "organizations",
            "identities",
            "passkeys",
            "audit",
        ],
    )
}

/// The routes of the admin console: path, handler and OpenAPI entry.
pub fn routes() -> Routes {
    let signed_out = ("401", "Session expired or unauthorized");
    let not_admin = ("403", "Only admins can use the admin console");
    let no_user = ("404", "User not found");
    let user_ref = || json!({ "$ref": "#/components/schemas/AdminUser" });
    let page_of = |schema: &str| {
        object(
            &[
                (
                    "items",
                    json!({ "type": "array", "items": { "$ref": format!("#/components/schemas/{schema}") } }),
                ),
                ("nextCursor", nullable_string()),
            ],
            &["items", "nextCursor"],
        )
    };
    Routes::new()
        .get("/admin/users", search_users, operation("Find people by a prefix of their name or email, in name order")
            .signed_in()
            .query_param_of("query", "A prefix of the name or email (case-insensitive)", openapi::search(MAX_QUERY))
            .query_param_of("role", "One role", json!({ "enum": ["career", "campus", "hire", "admin"] }))
            .query_param_of("status", "One status", json!({ "enum": ["pending", "active", "suspended"] }))
            .param(limit_param(50, 100))
            .param(cursor_param())
            .answers(("200", ok("A page of people", Some(page_of("AdminUser")))), &[("400", "Field errors"), signed_out, not_admin]))
        .get("/admin/users/{id}", user_picture, operation("One person: account, sessions, organizations, providers, passkeys, audit trail")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("The person", Some(person_page()))), &[signed_out, not_admin, no_user]))
        .post("/admin/users/{id}/suspend", suspend, operation("Suspend an account: every session ends at once")
            .signed_in()
            .id_param("id")
            .body(object(&[("reason", prose(500))], &["reason"]))
            .answers(("200", ok("Account suspended", None)), &[("400", "Reason is required"), signed_out, ("403", "Not an admin, your own account, or REAUTHENTICATION_REQUIRED: confirm it's you first"), no_user]))
        .post("/admin/users/{id}/restore", restore, operation("Lift a suspension")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("Account restored", None)), &[signed_out, not_admin, no_user]))
        .post("/admin/users/{id}/sign-out", sign_out, operation("End every session of an account")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("Signed out everywhere", None)), &[signed_out, not_admin, no_user]))
        .delete("/admin/users/{id}/sessions/{sessionId}", end_session, operation("End one session of an account")
            .signed_in()
            .id_param("id")
            .path_param("sessionId")
            .answers(("200", ok("Session signed out", None)), &[signed_out, not_admin, ("404", "User or session not found")]))
        .put("/admin/users/{id}/role", set_role, operation("Change an account's role (not your own); its sessions end")
            .signed_in()
            .id_param("id")
            .body(object(&[("role", json!({ "enum": ["career", "campus", "hire", "admin"] }))], &["role"]))
            .answers(("200", ok("Role updated", Some(object(&[("user", user_ref())], &["user"])))), &[("400", "Field errors"), signed_out, ("403", "Not an admin, your own role, or REAUTHENTICATION_REQUIRED: confirm it's you first"), no_user]))
        .post("/admin/users/{id}/resend-verification", resend_verification, operation("Mail an unverified account a new verification code")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("Verification email sent", None)), &[signed_out, not_admin, no_user, ("409", "Email is already verified"), ("429", "Within the code's cooldown")]))
        .get("/admin/audit", audit, operation("The audit log, newest first, filtered")
            .signed_in()
            .query_param_of("userId", "One account's events", json!({ "type": "string", "format": "uuid" }))
            .query_param("kind", "One kind, such as sign_in")
            .query_param_of("from", "Inclusive", json!({ "type": "string", "format": "date-time" }))
            .query_param_of("to", "Exclusive", json!({ "type": "string", "format": "date-time" }))
            .param(limit_param(50, 100))
            .param(cursor_param())
            .answers(("200", ok("A page of events", Some(page_of("AuditEvent")))), &[("400", "Field errors"), signed_out, not_admin]))
        .get("/admin/audit.csv", audit_csv, operation("The filtered audit log as a CSV download (streamed)")
            .signed_in()
            .query_param_of("userId", "One account's events", json!({ "type": "string", "format": "uuid" }))
            .query_param("kind", "One kind, such as sign_in")
            .query_param_of("from", "Inclusive", json!({ "type": "string", "format": "date-time" }))
            .query_param_of("to", "Exclusive", json!({ "type": "string", "format": "date-time" }))
            .answers(("200", json!({ "description": "text/csv: at,kind,userId,actorId,ip,userAgent,detail", "content": { "text/csv": { "schema": string() } } })), &[("400", "Field errors"), signed_out, not_admin]))
        .get("/admin/orgs", search_orgs, operation("Every organization, by name, with a name prefix search")
            .signed_in()
            .query_param_of("query", "A prefix of the name (case-insensitive)", openapi::search(MAX_QUERY))
            .param(limit_param(50, 100))
            .param(cursor_param())
            .answers(("200", ok("A page of organizations", Some(page_of("Organization")))), &[("400", "Field errors"), signed_out, not_admin]))
        .put("/admin/orgs/{id}", update_org, operation("Set an organization's seat limit (null: unlimited)")
            .signed_in()
            .id_param("id")
            .body(object(&[("seatLimit", json!({ "type": ["integer", "null"], "minimum": 1, "maximum": crate::organizations::MAX_SEATS }))], &["seatLimit"]))
            .answers(("200", ok("Organization updated", Some(object(&[("organization", json!({ "$ref": "#/components/schemas/Organization" }))], &["organization"])))), &[("400", "Field errors"), signed_out, not_admin, ("404", "Organization not found")]))
}

/// A person in the console: the account, with the last sign-in and organization count.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AdminUser {
    #[serde(flatten)]
    user: User,
    #[serde(serialize_with = "rfc3339_opt")]
    last_sign_in_at: Option<chrono::DateTime<chrono::Utc>>,
    organizations: u64,
}

impl From<Listed> for AdminUser {
    fn from(listed: Listed) -> Self {
        Self {
            last_sign_in_at: listed.user.last_sign_in_at,
            user: listed.user.into(),
            organizations: listed.organizations,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Page<T> {
    items: Vec<T>,
    next_cursor: Option<String>,
}

#[derive(Serialize)]
struct Membership {
    id: String,
    name: String,
    kind: String,
    role: Option<String>,
}

#[derive(Serialize)]
struct PictureData {
    user: AdminUser,
    sessions: Vec<Session>,
    organizations: Vec<Membership>,
    identities: Vec<Identity>,
    passkeys: Vec<Passkey>,
    audit: Vec<AuditEvent>,
}

#[derive(Serialize)]
struct UserData {
    user: AdminUser,
}

#[derive(Serialize)]
struct OrganizationData {
    organization: Organization,
}

async fn search_users(
    State(state): State<AppState>,
    viewer: Viewer,
    Params(query): Params<SearchForm>,
) -> Answer<Page<AdminUser>> {
    // One that does not parse is an empty form whose `limit` fails.
    let form = query.unwrap_or_else(|| SearchForm {
        limit: Some(0),
        ..SearchForm::default()
    });
    let page = users::search(&state, &viewer, form).await?;
    Ok(Reply::data(Page {
        items: page.items.into_iter().map(AdminUser::from).collect(),
        next_cursor: page.next_cursor,
    }))
}

async fn user_picture(
    State(state): State<AppState>,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer<PictureData> {
    let picture = users::picture(&state, &viewer, &id).await?;
    Ok(Reply::data(PictureData {
        user: picture.listed.into(),
        sessions: picture.sessions.into_iter().map(Session::from).collect(),
        organizations: picture
            .organizations
            .into_iter()
            .map(|view| Membership {
                id: view.org.id.to_string(),
                name: view.org.name,
                kind: view.org.kind.as_str().to_owned(),
                role: view.my_role.map(|role| role.as_str().to_owned()),
            })
            .collect(),
        identities: picture
            .identities
            .into_iter()
            .filter_map(Identity::from_row)
            .collect(),
        passkeys: picture.passkeys.into_iter().map(Passkey::from).collect(),
        audit: picture.audit.into_iter().map(AuditEvent::from).collect(),
    }))
}

async fn suspend(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
    Input(form): Input<SuspendForm>,
) -> Answer {
    users::suspend(&state, &viewer, &id, form, &caller.client).await?;
    Ok(Reply::message(users::SUSPENDED))
}

async fn restore(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer {
    users::restore(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(users::RESTORED))
}

async fn sign_out(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer {
    users::sign_out(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(users::SIGNED_OUT))
}

async fn end_session(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments((id, session_id)): Segments<(String, String)>,
) -> Answer {
    users::end_session(&state, &viewer, &id, &session_id, &caller.client).await?;
    Ok(Reply::message(crate::accounts::sessions::REVOKED))
}

async fn set_role(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
    Input(form): Input<RoleForm>,
) -> Answer<UserData> {
    let listed = users::set_role(&state, &viewer, &id, form, &caller.client).await?;
    Ok(Reply::data(UserData { user: listed.into() }).with_message(users::ROLE_UPDATED))
}

async fn resend_verification(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer {
    users::resend_verification(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(users::VERIFICATION_SENT))
}

async fn audit(
    State(state): State<AppState>,
    viewer: Viewer,
    Params(query): Params<LogForm>,
) -> Answer<Page<AuditEvent>> {
    let form = query.unwrap_or_else(|| LogForm {
        limit: Some(0),
        ..LogForm::default()
    });
    let page = audit_log::list(&state, &viewer, form).await?;
    Ok(Reply::data(Page {
        items: page.events.into_iter().map(AuditEvent::from).collect(),
        next_cursor: page.next_cursor,
    }))
}

async fn audit_csv(
    State(state): State<AppState>,
    viewer: Viewer,
    Params(query): Params<ExportForm>,
) -> Result<Response, ErrorResponse> {
    // Every parameter is text, so only one given twice fails to parse, and `Params` names it.
    let form = LogForm::from(query.unwrap_or_default());
    let filter = audit_log::export_filter(&viewer, &form)?;
    let body = Body::from_stream(audit_log::export(state.db.clone(), filter));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"audit-log.csv\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response())
}

async fn search_orgs(
    State(state): State<AppState>,
    viewer: Viewer,
    Params(query): Params<OrgSearchForm>,
) -> Answer<Page<Organization>> {
    let form = query.unwrap_or_else(|| OrgSearchForm {
        limit: Some(0),
        ..OrgSearchForm::default()
    });
    let page = orgs::search(&state, &viewer, form).await?;
    Ok(Reply::data(Page {
        items: page.items.into_iter().map(Organization::from).collect(),
        next_cursor: page.next_cursor,
    }))
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct SeatForm {
    #[serde(deserialize_with = "crate::patch::whole")]
    seat_limit: crate::patch::Patch<i32>,
}

async fn update_org(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
    Input(form): Input<SeatForm>,
) -> Answer<OrganizationData> {
    let view =
        crate::admin::orgs::set_seat_limit(&state, &viewer, &id, form.seat_limit, &caller.client).await?;
    Ok(Reply::data(OrganizationData {
        organization: view.into(),
    })
    .with_message(crate::organizations::UPDATED))
}
