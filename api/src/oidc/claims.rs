//! What an ID token and userinfo say about a person, by the scopes the client was granted.

use entity::users;
use openidconnect::{
    EndUserEmail, EndUserName, LocalizedClaim, StandardClaims, SubjectIdentifier, core::CoreGenderClaim,
};
use sea_orm::ConnectionTrait;
use uuid::Uuid;

use super::{OrganizationClaim, TalentClaims};
use crate::error::Result;

/// The claims a scope grants: `email` gives email and email_verified, `profile` the name;
/// the role is always there as `talent_role`.
pub fn standard(user: &users::Model, scope: &str) -> StandardClaims<CoreGenderClaim> {
    let scopes: Vec<&str> = scope.split(' ').collect();
    let mut claims = StandardClaims::new(SubjectIdentifier::new(user.id.to_string()));
    if scopes.contains(&"email") {
        claims = claims
            .set_email(Some(EndUserEmail::new(user.email.clone())))
            .set_email_verified(Some(user.email_verified));
    }
    if scopes.contains(&"profile") {
        let mut name = LocalizedClaim::new();
        name.insert(None, EndUserName::new(user.name.clone()));
        claims = claims.set_name(Some(name));
    }
    claims
}

/// The claims beyond the standard ones: the role always, the provider session in ID tokens,
/// and with the `organizations` scope the person's organizations and their role in each.
///
/// # Errors
/// On a database failure.
pub async fn talent(
    db: &impl ConnectionTrait,
    user: &users::Model,
    scope: &str,
    sid: Option<Uuid>,
) -> Result<TalentClaims> {
    let organizations = if scope.split(' ').any(|s| s == "organizations") {
        let list = crate::organizations::list_of(db, user.id).await?;
        Some(
            list.into_iter()
                .map(|view| OrganizationClaim {
                    id: view.org.id.to_string(),
                    name: view.org.name,
                    kind: view.org.kind.as_str().to_owned(),
                    role: view.my_role.map_or("member", |role| role.as_str()).to_owned(),
                })
                .collect(),
        )
    } else {
        None
    };
    Ok(TalentClaims {
        talent_role: Some(user.role.as_str().to_owned()),
        sid: sid.map(|sid| sid.to_string()),
        organizations,
    })
}
