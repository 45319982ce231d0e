//! `/orgs/*` and `/invitations/*`: organizations, members and invitations.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{
    envelope::{Answer, Reply},
    input::{Input, Params, Segments},
    openapi::{cursor_param, limit_param, name, nullable_string, object, ok, operation, or_null, string},
    routes::Routes,
};
use crate::{
    accounts::sessions::Viewer,
    graphql::organizations::{
        Invitation, InvitationDetails, InvitationsSent, MemberPage, Membership, Organization,
    },
    http::caller::Caller,
    organizations::{
        self as orgs, CreateForm, UpdateForm,
        invitations::{self, InviteForm},
        members::{self, RoleForm},
    },
    state::AppState,
};

/// The routes of organizations: path, handler and OpenAPI entry.
pub fn routes() -> Routes {
    let organization = || {
        object(
            &[(
                "organization",
                json!({ "$ref": "#/components/schemas/Organization" }),
            )],
            &["organization"],
        )
    };
    let invitation_list =
        || json!({ "type": "array", "items": { "$ref": "#/components/schemas/Invitation" } });
    let role = || json!({ "enum": ["owner", "admin", "member"] });
    let slug = || json!({ "type": "string", "pattern": "^[a-z0-9-]{3,40}$" });
    // On creation an empty or null slug is one left out: the server makes it from the name.
    let new_slug = || {
        or_null(
            json!({ "type": "string", "pattern": "^([a-z0-9-]{3,40})?$", "description": "Left out, empty or null: made from the name" }),
        )
    };
    let signed_out = ("401", "Session expired or unauthorized");
    let not_found = ("404", "Not found, or not yours to see");
    let members_only = ("403", "Your role in the organization does not allow it");
    Routes::new()
        .post("/orgs", create, operation("Create an organization (Hire and Campus accounts); the caller is its owner")
            .signed_in()
            .body(object(&[("name", name(100)), ("slug", new_slug())], &["name"]))
            .answers(("201", ok("Organization created", Some(organization()))), &[("400", "Field errors"), signed_out, ("403", "Only Hire and Campus accounts can create organizations"), ("409", "An organization with this slug already exists")]))
        .get("/orgs", list, operation("The caller's organizations, by name")
            .signed_in()
            .answers(("200", ok("The organizations", Some(object(&[("organizations", json!({ "type": "array", "items": { "$ref": "#/components/schemas/Organization" } }))], &["organizations"])))), &[signed_out]))
        .get("/orgs/{id}", get, operation("One organization, for its members")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("The organization", Some(organization()))), &[signed_out, not_found]))
        .put("/orgs/{id}", update, operation("Rename it or change its slug (owners and org admins), or its seat limit (site admins)")
            .signed_in()
            .id_param("id")
            // A field left out or null stays as it is.
            .optional_body(object(&[("name", or_null(name(100))), ("slug", or_null(slug())), ("seatLimit", json!({ "type": ["integer", "null"], "minimum": 1, "maximum": orgs::MAX_SEATS }))], &[]))
            .answers(("200", ok("Organization updated", Some(organization()))), &[("400", "Field errors"), signed_out, members_only, not_found, ("409", "An organization with this slug already exists")]))
        .delete("/orgs/{id}", delete, operation("Delete it with its memberships and invitations (owners)")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("Organization deleted", None)), &[signed_out, members_only, not_found]))
        .get("/orgs/{id}/members", list_members, operation("Its members: owners first, then by name")
            .signed_in()
            .id_param("id")
            .param(limit_param(50, 100))
            .param(cursor_param())
            .answers(("200", ok("A page", Some(object(&[("items", json!({ "type": "array", "items": { "$ref": "#/components/schemas/Membership" } })), ("nextCursor", nullable_string())], &["items", "nextCursor"])))), &[("400", "Bad limit or cursor"), signed_out, not_found]))
        .put("/orgs/{id}/members/{userId}", change_role, operation("Change a member's role (owners any; org admins between member and admin)")
            .signed_in()
            .id_param("id")
            .id_param("userId")
            .body(object(&[("role", role())], &["role"]))
            .answers(("200", ok("Member updated", Some(object(&[("member", json!({ "$ref": "#/components/schemas/Membership" }))], &["member"])))), &[("400", "Bad role"), signed_out, members_only, not_found, ("409", "An organization needs at least one owner")]))
        .delete("/orgs/{id}/members/{userId}", remove_member, operation("Remove a member, or leave (your own id)")
            .signed_in()
            .id_param("id")
            .id_param("userId")
            .answers(("200", ok("Member removed", None)), &[signed_out, members_only, not_found, ("409", "An organization needs at least one owner")]))
        .post("/orgs/{id}/invitations", invite, operation("Invite 1-500 addresses; each gets a mail with a link valid 7 days")
            .signed_in()
            .id_param("id")
            .body(object(&[("emails", json!({ "type": "array", "items": string(), "minItems": 1, "maxItems": 500, "description": "Addresses that are not well formed are skipped as invalid" })), ("role", role())], &["emails"]))
            .answers(("201", ok("Invitations sent", Some(object(&[("invitations", invitation_list()), ("skipped", json!({ "type": "array", "items": object(&[("email", string()), ("reason", json!({ "enum": ["member", "invited", "invalid"] }))], &["email", "reason"]) }))], &["invitations", "skipped"])))), &[("400", "Field errors"), signed_out, members_only, not_found, ("409", "Seat limit reached"), ("429", "Past 1,000 invitations a day")]))
        .get("/orgs/{id}/invitations", list_invitations, operation("Its pending invitations, newest first (owners and org admins)")
            .signed_in()
            .id_param("id")
            .answers(("200", ok("The invitations", Some(object(&[("items", invitation_list())], &["items"])))), &[signed_out, members_only, not_found]))
        .delete("/orgs/{id}/invitations/{invitationId}", revoke_invitation, operation("Revoke a pending invitation")
            .signed_in()
            .id_param("id")
            .id_param("invitationId")
            .answers(("200", ok("Invitation revoked", None)), &[signed_out, members_only, not_found]))
        .get("/invitations/{token}", show_invitation, operation("What an invitation link shows (public)")
            .token_param("token")
            .answers(("200", ok("The invitation", Some(object(&[("invitation", json!({ "$ref": "#/components/schemas/InvitationDetails" }))], &["invitation"])))), &[("404", "Invitation not found"), ("410", "This invitation has expired")]))
        .post("/invitations/{token}/accept", accept_invitation, operation("Join with the invitation's role; your verified email must be the invited one")
            .signed_in()
            .token_param("token")
            .answers(("200", ok("You joined {name}", Some(organization()))), &[signed_out, ("403", "This invitation is for another email address, or EMAIL_NOT_VERIFIED"), ("404", "Invitation not found"), ("410", "This invitation has expired")]))
        .post("/invitations/{token}/decline", decline_invitation, operation("Turn the invitation down (public: the link is the secret); its seat is free at once")
            .token_param("token")
            .answers(("200", ok("Invitation declined", None)), &[("404", "Invitation not found"), ("410", "This invitation has expired")]))
}

#[derive(Serialize)]
struct OrganizationData {
    organization: Organization,
}

#[derive(Serialize)]
struct OrganizationsData {
    organizations: Vec<Organization>,
}

#[derive(Serialize)]
struct MemberData {
    member: Membership,
}

#[derive(Serialize)]
struct InvitationsData {
    items: Vec<Invitation>,
}

#[derive(Serialize)]
struct InvitationData {
    invitation: InvitationDetails,
}

#[derive(Deserialize)]
struct PageParams {
    limit: Option<String>,
    cursor: Option<String>,
}

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Input(form): Input<CreateForm>,
) -> Answer<OrganizationData> {
    let view = orgs::create(&state, &viewer, form, &caller.client).await?;
    Ok(Reply::data(OrganizationData {
        organization: view.into(),
    })
    .with_message(orgs::CREATED)
    .created())
}

async fn list(State(state): State<AppState>, viewer: Viewer) -> Answer<OrganizationsData> {
    let list = orgs::list_mine(&state, &viewer).await?;
    Ok(Reply::data(OrganizationsData {
        organizations: list.into_iter().map(Organization::from).collect(),
    }))
}

async fn get(
    State(state): State<AppState>,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer<OrganizationData> {
    let view = orgs::get(&state, &viewer, &id).await?;
    Ok(Reply::data(OrganizationData {
        organization: view.into(),
    }))
}

async fn update(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
    Input(form): Input<UpdateForm>,
) -> Answer<OrganizationData> {
    let view = orgs::update(&state, &viewer, &id, form, &caller.client).await?;
    Ok(Reply::data(OrganizationData {
        organization: view.into(),
    })
    .with_message(orgs::UPDATED))
}

async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer {
    orgs::delete(&state, &viewer, &id, &caller.client).await?;
    Ok(Reply::message(orgs::DELETED))
}

async fn list_members(
    State(state): State<AppState>,
    viewer: Viewer,
    Segments(id): Segments<String>,
    Params(params): Params<PageParams>,
) -> Answer<MemberPage> {
    // A limit that is not a number is passed as 0, so the domain answers with its own text.
    let (first, after) = match params {
        Some(params) => (
            params.limit.map(|l| l.trim().parse::<i32>().unwrap_or(0)),
            params.cursor,
        ),
        None => (Some(0), None),
    };
    let page = members::list(&state, &viewer, &id, first, after.as_deref()).await?;
    Ok(Reply::data(page.into()))
}

async fn change_role(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments((id, user_id)): Segments<(String, String)>,
    Input(form): Input<RoleForm>,
) -> Answer<MemberData> {
    let member = members::change_role(&state, &viewer, &id, &user_id, form, &caller.client).await?;
    Ok(Reply::data(MemberData {
        member: member.into(),
    })
    .with_message(members::UPDATED))
}

async fn remove_member(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments((id, user_id)): Segments<(String, String)>,
) -> Answer {
    members::remove(&state, &viewer, &id, &user_id, &caller.client).await?;
    Ok(Reply::message(members::REMOVED))
}

async fn invite(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(id): Segments<String>,
    Input(form): Input<InviteForm>,
) -> Answer<InvitationsSent> {
    let outcome = invitations::invite(&state, &viewer, &id, form, &caller.client).await?;
    Ok(Reply::data(InvitationsSent::from(outcome))
        .with_message(invitations::SENT)
        .created())
}

async fn list_invitations(
    State(state): State<AppState>,
    viewer: Viewer,
    Segments(id): Segments<String>,
) -> Answer<InvitationsData> {
    let list = invitations::list(&state, &viewer, &id).await?;
    Ok(Reply::data(InvitationsData {
        items: list.into_iter().map(Invitation::from).collect(),
    }))
}

async fn revoke_invitation(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments((id, invitation_id)): Segments<(String, String)>,
) -> Answer {
    invitations::revoke(&state, &viewer, &id, &invitation_id, &caller.client).await?;
    Ok(Reply::message(invitations::REVOKED))
}

async fn show_invitation(
    State(state): State<AppState>,
    Segments(token): Segments<String>,
) -> Answer<InvitationData> {
    let shown = invitations::show(&state, &token).await?;
    Ok(Reply::data(InvitationData {
        invitation: shown.into(),
    }))
}

async fn decline_invitation(
    State(state): State<AppState>,
    caller: Caller,
    Segments(token): Segments<String>,
) -> Answer {
    invitations::decline(&state, &token, &caller.client).await?;
    Ok(Reply::message(invitations::DECLINED))
}

async fn accept_invitation(
    State(state): State<AppState>,
    caller: Caller,
    viewer: Viewer,
    Segments(token): Segments<String>,
) -> Answer<OrganizationData> {
    let view = invitations::accept(&state, &viewer, &token, &caller.client).await?;
    let message = invitations::joined(&view.org.name);
    Ok(Reply::data(OrganizationData {
        organization: view.into(),
    })
    .with_message(message))
}
