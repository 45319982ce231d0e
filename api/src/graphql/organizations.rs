//! Organizations, members and invitations: the shapes both skins answer with, and the
//! resolvers. The REST handlers in `rest/organizations.rs` call the same domain functions.

use async_graphql::{Context, ID, Object, SimpleObject};
use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{
    OneAuthOperation, context,
    errors::IntoGql,
    inputs::{CreateOrganizationInput, InviteInput, UpdateOrganizationInput},
    types::{MessagePayload, rfc3339},
};
use crate::organizations::{
    self as orgs, View,
    invitations::{self, Outcome, Sent, Shown},
    members::{self, Member, RoleForm},
};

#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Organization {
    pub id: ID,
    pub name: String,
    pub slug: String,
    /// hire or campus.
    pub kind: String,
    /// Members plus pending invitations may not pass it; null is unlimited.
    pub seat_limit: Option<i32>,
    pub member_count: u64,
    /// The caller's role (owner, admin or member); null for a site admin who is not a member.
    pub my_role: Option<String>,
    #[serde(serialize_with = "rfc3339")]
    pub created_at: DateTime<Utc>,
}

impl From<View> for Organization {
    fn from(view: View) -> Self {
        Self {
            id: ID(view.org.id.to_string()),
            name: view.org.name,
            slug: view.org.slug,
            kind: view.org.kind.as_str().to_owned(),
            seat_limit: view.org.seat_limit,
            member_count: view.member_count,
            my_role: view.my_role.map(|role| role.as_str().to_owned()),
            created_at: view.org.created_at,
        }
    }
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct MemberUser {
    pub id: ID,
    pub name: String,
    pub email: String,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Membership {
    pub user: MemberUser,
    /// owner, admin or member.
    pub role: String,
    #[serde(serialize_with = "rfc3339")]
    pub joined_at: DateTime<Utc>,
}

impl From<Member> for Membership {
    fn from((membership, user): Member) -> Self {
        Self {
            user: MemberUser {
                id: ID(user.id.to_string()),
                name: user.name,
                email: user.email,
            },
            role: membership.role.as_str().to_owned(),
            joined_at: membership.joined_at,
        }
    }
}

/// A page of members: owners first, then everyone else, each by name.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct MemberPage {
    pub items: Vec<Membership>,
    /// Pass as `after` for the next page; null at the end.
    pub next_cursor: Option<String>,
}

impl From<members::Page> for MemberPage {
    fn from(page: members::Page) -> Self {
        Self {
            items: page.items.into_iter().map(Membership::from).collect(),
            next_cursor: page.next_cursor,
        }
    }
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct Inviter {
    pub id: ID,
    pub name: String,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub id: ID,
    pub email: String,
    /// The role it gives: owner, admin or member.
    pub role: String,
    /// pending, accepted, revoked or expired.
    pub status: String,
    #[serde(serialize_with = "rfc3339")]
    pub expires_at: DateTime<Utc>,
    /// Null once the inviter's account is deleted.
    pub invited_by: Option<Inviter>,
    #[serde(serialize_with = "rfc3339")]
    pub created_at: DateTime<Utc>,
}

impl From<Sent> for Invitation {
    fn from((invitation, inviter): Sent) -> Self {
        use entity::organization_invitations::InvitationStatus;
        let status = match invitation.status {
            InvitationStatus::Pending if invitation.expires_at <= Utc::now() => "expired",
            InvitationStatus::Pending => "pending",
            InvitationStatus::Accepted => "accepted",
            InvitationStatus::Revoked => "revoked",
        };
        Self {
            id: ID(invitation.id.to_string()),
            email: invitation.email,
            role: invitation.role.as_str().to_owned(),
            status: status.to_owned(),
            expires_at: invitation.expires_at,
            invited_by: inviter.map(|user| Inviter {
                id: ID(user.id.to_string()),
                name: user.name,
            }),
            created_at: invitation.created_at,
        }
    }
}

/// Where an invitation leads.
#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct InvitedOrganization {
    pub name: String,
    /// hire or campus.
    pub kind: String,
}

/// An invitation as its link shows it.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct InvitationDetails {
    pub id: ID,
    pub email: String,
    pub role: String,
    pub status: String,
    #[serde(serialize_with = "rfc3339")]
    pub expires_at: DateTime<Utc>,
    pub invited_by: Option<Inviter>,
    #[serde(serialize_with = "rfc3339")]
    pub created_at: DateTime<Utc>,
    pub organization: InvitedOrganization,
}

impl From<Shown> for InvitationDetails {
    fn from(shown: Shown) -> Self {
        let invitation = Invitation::from(shown.invitation);
        Self {
            id: invitation.id,
            email: invitation.email,
            role: invitation.role,
            status: invitation.status,
            expires_at: invitation.expires_at,
            invited_by: invitation.invited_by,
            created_at: invitation.created_at,
            organization: InvitedOrganization {
                name: shown.organization.name,
                kind: shown.organization.kind.as_str().to_owned(),
            },
        }
    }
}

/// An address that got no invitation, and why.
#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct SkippedInvitation {
    pub email: String,
    /// member (already one), invited (a pending invitation exists) or invalid.
    pub reason: String,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct InvitationsSent {
    /// One per new address.
    pub invitations: Vec<Invitation>,
    pub skipped: Vec<SkippedInvitation>,
}

impl From<Outcome> for InvitationsSent {
    fn from(outcome: Outcome) -> Self {
        Self {
            invitations: outcome.invitations.into_iter().map(Invitation::from).collect(),
            skipped: outcome
                .skipped
                .into_iter()
                .map(|(email, reason)| SkippedInvitation {
                    email,
                    reason: reason.as_str().to_owned(),
                })
                .collect(),
        }
    }
}

#[derive(SimpleObject, Clone, Debug)]
pub struct OrganizationPayload {
    pub message: String,
    pub organization: Organization,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct MembershipPayload {
    pub message: String,
    pub member: Membership,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct InvitationsPayload {
    pub message: String,
    pub invitations: Vec<Invitation>,
    pub skipped: Vec<SkippedInvitation>,
}

#[derive(Default)]
pub struct OrganizationsQuery;

#[Object]
impl OrganizationsQuery {
    /// The caller's organizations, by name.
    #[graphql(complexity = "super::limits::whole_list_cost(child_complexity)")]
    async fn organizations(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Organization>> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let list = orgs::list_mine(state, &viewer).await.gql()?;
        Ok(list.into_iter().map(Organization::from).collect())
    }

    /// One organization, for its members (and site admins).
    async fn organization(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<Organization> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        Ok(orgs::get(state, &viewer, &id).await.gql()?.into())
    }

    /// A page of an organization's members. `first`: 1-100, default 50.
    #[graphql(complexity = "super::limits::long_page_cost(first, child_complexity)")]
    async fn members(
        &self,
        ctx: &Context<'_>,
        organization_id: ID,
        first: Option<i32>,
        after: Option<String>,
    ) -> async_graphql::Result<MemberPage> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let page = members::list(state, &viewer, &organization_id, first, after.as_deref())
            .await
            .gql_page()?;
        Ok(page.into())
    }

    /// An organization's pending invitations, newest first (owners and org admins).
    #[graphql(complexity = "super::limits::whole_list_cost(child_complexity)")]
    async fn invitations(
        &self,
        ctx: &Context<'_>,
        organization_id: ID,
    ) -> async_graphql::Result<Vec<Invitation>> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let list = invitations::list(state, &viewer, &organization_id).await.gql()?;
        Ok(list.into_iter().map(Invitation::from).collect())
    }

    /// What an invitation link shows. Public: the token is the secret.
    async fn invitation(&self, ctx: &Context<'_>, token: String) -> async_graphql::Result<InvitationDetails> {
        let (state, _) = context(ctx);
        Ok(invitations::show(state, &token).await.gql()?.into())
    }
}

#[derive(Default)]
pub struct OrganizationsMutation;

#[Object]
impl OrganizationsMutation {
    /// Hire and Campus accounts; the caller becomes its owner.
    async fn create_organization(
        &self,
        ctx: &Context<'_>,
        input: CreateOrganizationInput,
    ) -> async_graphql::Result<OrganizationPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let view = orgs::create(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(OrganizationPayload {
            message: orgs::CREATED.to_owned(),
            organization: view.into(),
        })
    }

    /// Owners and org admins (the seat limit: site admins). Fields left out stay.
    async fn update_organization(
        &self,
        ctx: &Context<'_>,
        id: ID,
        input: UpdateOrganizationInput,
    ) -> async_graphql::Result<OrganizationPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let view = orgs::update(state, &viewer, &id, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(OrganizationPayload {
            message: orgs::UPDATED.to_owned(),
            organization: view.into(),
        })
    }

    /// Owners only; its memberships and invitations go with it.
    async fn delete_organization(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        orgs::delete(state, &viewer, &id, &meta.client).await.gql()?;
        Ok(MessagePayload::new(orgs::DELETED))
    }

    /// owner, admin or member. Owners change any role; org admins only between member and admin.
    async fn change_member_role(
        &self,
        ctx: &Context<'_>,
        organization_id: ID,
        user_id: ID,
        role: String,
    ) -> async_graphql::Result<MembershipPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let form = RoleForm { role: Some(role) };
        let member = members::change_role(state, &viewer, &organization_id, &user_id, form, &meta.client)
            .await
            .gql()?;
        Ok(MembershipPayload {
            message: members::UPDATED.to_owned(),
            member: member.into(),
        })
    }

    /// Owners and org admins remove others; anyone may remove themself (leave).
    async fn remove_member(
        &self,
        ctx: &Context<'_>,
        organization_id: ID,
        user_id: ID,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        members::remove(state, &viewer, &organization_id, &user_id, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(members::REMOVED))
    }

    /// Up to 500 addresses; each gets a mail with a link valid seven days. One a request, as
    /// a sign-in is: twenty aliases of it would mail ten thousand addresses in one request.
    #[graphql(guard = "OneAuthOperation")]
    async fn invite_members(
        &self,
        ctx: &Context<'_>,
        organization_id: ID,
        input: InviteInput,
    ) -> async_graphql::Result<InvitationsPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let sent = InvitationsSent::from(
            invitations::invite(state, &viewer, &organization_id, input.into(), &meta.client)
                .await
                .gql()?,
        );
        Ok(InvitationsPayload {
            message: invitations::SENT.to_owned(),
            invitations: sent.invitations,
            skipped: sent.skipped,
        })
    }

    /// Owners and org admins; the link stops working at once.
    async fn revoke_invitation(
        &self,
        ctx: &Context<'_>,
        organization_id: ID,
        invitation_id: ID,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        invitations::revoke(state, &viewer, &organization_id, &invitation_id, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(invitations::REVOKED))
    }

    /// Turns the invitation down; public, as its link's page is (the token is the secret).
    async fn decline_invitation(
        &self,
        ctx: &Context<'_>,
        token: String,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        invitations::decline(state, &token, &meta.client).await.gql()?;
        Ok(MessagePayload::new(invitations::DECLINED))
    }

    /// Joins with the invitation's role; the caller's verified email must be the invited one.
    async fn accept_invitation(
        &self,
        ctx: &Context<'_>,
        token: String,
    ) -> async_graphql::Result<OrganizationPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let view = invitations::accept(state, &viewer, &token, &meta.client)
            .await
            .gql()?;
        Ok(OrganizationPayload {
            message: invitations::joined(&view.org.name),
            organization: view.into(),
        })
    }
}
