//! An application that signs people in through Talent Suite (OpenID Connect relying party).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oauth_clients")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub client_id: String,
    pub name: String,
    /// SHA-256 of the client secret; `None` for a public client (PKCE alone).
    pub secret_hash: Option<String>,
    /// JSON array of the exact redirect URIs.
    pub redirect_uris: String,
    /// JSON array of the URIs RP-initiated logout may return to.
    pub post_logout_redirect_uris: String,
    pub backchannel_logout_uri: Option<String>,
    /// One of the three platforms: no consent screen.
    pub first_party: bool,
    /// How its ID tokens are signed: `RS256` or `EdDSA`.
    pub id_token_signed_response_alg: String,
    pub created_at: DateTimeUtc,
}

/// The current signing keys of the client's ID-token algorithm (the token endpoint reads the
/// newest with the client and the code, in one query).
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(
        belongs_to = "super::signing_keys::Entity",
        from = "Column::IdTokenSignedResponseAlg",
        to = "super::signing_keys::Column::Alg",
        on_condition = r#"super::signing_keys::Column::RetiredAt.is_null()"#
    )]
    CurrentSigningKey,
}

impl Related<super::signing_keys::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::CurrentSigningKey.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
