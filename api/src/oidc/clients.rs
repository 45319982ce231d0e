//! Registered clients: created by an operator (`api oauth-client create`) or an admin
//! (GraphQL), each with its exact redirect URIs. A confidential client's secret is shown once
//! and stored as its SHA-256 (it is 256 random bits); a public client proves itself with PKCE.

use base64::{Engine, engine::general_purpose::STANDARD};
use chrono::Utc;
use entity::oauth_clients;
use rand::{RngCore, rngs::OsRng};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryOrder, Set};
use url::Url;

use super::{OAuthError, keys};
use crate::{
    accounts::tokens,
    error::{Error, Result},
};

/// Who may list, register and remove applications.
pub const ADMINS_ONLY: &str = "Only admins can manage applications";

/// What an operator registers.
#[derive(Debug, Clone, Default)]
pub struct NewClient {
    pub name: String,
    pub redirect_uris: Vec<String>,
    pub post_logout_redirect_uris: Vec<String>,
    pub backchannel_logout_uri: Option<String>,
    pub public: bool,
    pub first_party: bool,
    pub id_token_alg: IdTokenAlg,
}

/// How a client's ID tokens are signed, its `id_token_signed_response_alg`: RS256 unless it
/// asks for EdDSA, the other algorithm the discovery document offers (a signature in a
/// fraction of RS256's time, for clients whose libraries verify Ed25519).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IdTokenAlg {
    #[default]
    Rs256,
    EdDsa,
}

impl IdTokenAlg {
    /// The JOSE name, as `alg` and the signing keys spell it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rs256 => keys::RS256,
            Self::EdDsa => keys::EDDSA,
        }
    }
}

impl std::str::FromStr for IdTokenAlg {
    type Err = String;

    fn from_str(name: &str) -> std::result::Result<Self, Self::Err> {
        match name {
            keys::RS256 => Ok(Self::Rs256),
            keys::EDDSA => Ok(Self::EdDsa),
            _ => Err(format!("ID token algorithm {name:?} is not RS256 or EdDSA")),
        }
    }
}

/// A client as the provider uses it.
#[derive(Debug, Clone)]
pub struct Client {
    pub client_id: String,
    pub name: String,
    pub public: bool,
    pub first_party: bool,
    pub redirect_uris: Vec<String>,
    pub post_logout_redirect_uris: Vec<String>,
    pub backchannel_logout_uri: Option<String>,
    pub id_token_alg: IdTokenAlg,
    secret_hash: Option<String>,
}

impl From<oauth_clients::Model> for Client {
    fn from(row: oauth_clients::Model) -> Self {
        let list = |json: &str| serde_json::from_str::<Vec<String>>(json).unwrap_or_default();
        Self {
            public: row.secret_hash.is_none(),
            redirect_uris: list(&row.redirect_uris),
            post_logout_redirect_uris: list(&row.post_logout_redirect_uris),
            client_id: row.client_id,
            name: row.name,
            first_party: row.first_party,
            backchannel_logout_uri: row.backchannel_logout_uri,
            // Only the two names are ever stored (`create`).
            id_token_alg: row.id_token_signed_response_alg.parse().unwrap_or_default(),
            secret_hash: row.secret_hash,
        }
    }
}

/// A client id: 16 random bytes in hex, so digits and `a`-`f` only. In base64url one id in 64
/// began with `-`, which a command line reads as an option (`api oauth-client delete -dEM…`
/// was refused as an unknown flag) and a double-click does not select whole.
fn new_client_id() -> String {
    let mut id = [0u8; 16];
    OsRng.fill_bytes(&mut id);
    hex::encode(id)
}

/// How long a registered URI may be: API.md's bound for a string it does not name.
const MAX_URI: usize = 255;

/// An absolute http(s) URI of at most [`MAX_URI`] characters, without a fragment or a user
/// name and password; plain http only for this machine.
fn checked_uri(what: &str, uri: &str) -> Result<String> {
    if uri.chars().count() > MAX_URI {
        return Err(Error::BadRequest(format!(
            "{what} must be at most {MAX_URI} characters"
        )));
    }
    let bad = |why: &str| Error::BadRequest(format!("{what} {uri:?} {why}"));
    let parsed = Url::parse(uri).map_err(|_| bad("is not an absolute URL"))?;
    if parsed.fragment().is_some() {
        return Err(bad("must not have a fragment"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad("must not carry a user name or password"));
    }
    let loopback = matches!(parsed.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
    match parsed.scheme() {
        "https" => Ok(uri.to_owned()),
        "http" if loopback => Ok(uri.to_owned()),
        _ => Err(bad(
            "must use https (http only for localhost, 127.0.0.1 and [::1])",
        )),
    }
}

/// Each of `uris` checked ([`checked_uri`]), a URI given twice kept once, in their order.
fn checked_uris(what: &str, uris: &[String]) -> Result<Vec<String>> {
    let mut kept: Vec<String> = Vec::with_capacity(uris.len());
    for uri in uris {
        let uri = checked_uri(what, uri)?;
        if !kept.contains(&uri) {
            kept.push(uri);
        }
    }
    Ok(kept)
}

/// Whether `ip` is an address on the public internet: not loopback, private, link-local,
/// shared (CGNAT), documentation, multicast or unspecified. Back-channel logout posts only to
/// such addresses outside local, so a client cannot aim the provider at its own network.
pub fn is_public(ip: std::net::IpAddr) -> bool {
    use std::net::IpAddr;
    match ip.to_canonical() {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || a == 0
                || a >= 240
                || (a == 100 && (64..128).contains(&b))
                || (a == 192 && b == 0 && v4.octets()[2] == 0)
                || (a == 198 && (b == 18 || b == 19)))
        }
        IpAddr::V6(v6) => {
            let [first, second, ..] = v6.segments();
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || first == 0x2001 && second == 0x0db8
                // Addresses that carry an IPv4 address a gateway may forward to, private ones
                // included: NAT64 (64:ff9b::/96 and the local 64:ff9b:1::/48, both in
                // 64:ff9b::/32), 6to4 (2002::/16), and the old IPv4-compatible ::/96.
                || first == 0x0064 && second == 0xff9b
                || first == 0x2002
                || v6.segments()[..6].iter().all(|s| *s == 0))
        }
    }
}

/// Outside local, a back-channel logout URI must not name this machine or a private network.
fn public_target(uri: &str) -> Result<()> {
    let refused = || {
        Error::BadRequest(format!(
            "Back-channel logout URI {uri:?} must point to a public address (not loopback, private or link-local)"
        ))
    };
    let parsed = Url::parse(uri).map_err(|_| refused())?;
    match parsed.host() {
        Some(url::Host::Ipv4(ip)) if !is_public(ip.into()) => Err(refused()),
        Some(url::Host::Ipv6(ip)) if !is_public(ip.into()) => Err(refused()),
        Some(url::Host::Domain(name))
            if name.eq_ignore_ascii_case("localhost")
                || name.to_ascii_lowercase().ends_with(".localhost") =>
        {
            Err(refused())
        }
        None => Err(refused()),
        _ => Ok(()),
    }
}

/// Registers a client; returns it and, for a confidential client, its secret (shown once).
/// `local` (`APP_ENV=local`) lets a back-channel logout URI name this machine.
///
/// # Errors
/// 400 for a missing name, no redirect URI or a URI that is not allowed.
#[tracing::instrument(skip_all)]
pub async fn create(
    db: &impl ConnectionTrait,
    new: NewClient,
    local: bool,
) -> Result<(Client, Option<String>)> {
    let name = new.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Error::BadRequest(
            "A client needs a name of 1 to 100 characters".to_owned(),
        ));
    }
    if new.redirect_uris.is_empty() {
        return Err(Error::BadRequest(
            "A client needs at least one redirect URI".to_owned(),
        ));
    }
    let redirects = checked_uris("Redirect URI", &new.redirect_uris)?;
    let post_logout = checked_uris("Post-logout redirect URI", &new.post_logout_redirect_uris)?;
    let backchannel = new
        .backchannel_logout_uri
        .as_deref()
        .map(|u| checked_uri("Back-channel logout URI", u))
        .transpose()?;
    if let Some(uri) = backchannel.as_deref()
        && !local
    {
        public_target(uri)?;
    }
    let secret = (!new.public).then(tokens::random_token);
    let row = oauth_clients::ActiveModel {
        client_id: Set(new_client_id()),
        name: Set(name),
        secret_hash: Set(secret.as_deref().map(tokens::sha256_hex)),
        redirect_uris: Set(serde_json::to_string(&redirects).map_err(Error::internal)?),
        post_logout_redirect_uris: Set(serde_json::to_string(&post_logout).map_err(Error::internal)?),
        backchannel_logout_uri: Set(backchannel),
        first_party: Set(new.first_party),
        id_token_signed_response_alg: Set(new.id_token_alg.as_str().to_owned()),
        created_at: Set(Utc::now()),
    }
    .insert(db)
    .await?;
    Ok((row.into(), secret))
}

/// Whether `origin` (`https://app.example`) is the origin of a registered redirect URI: the
/// browsers allowed to call the token and revocation endpoints.
///
/// # Errors
/// On a database failure.
pub async fn is_registered_origin(db: &impl ConnectionTrait, origin: &str) -> Result<bool> {
    Ok(list(db).await?.iter().any(|client| {
        client
            .redirect_uris
            .iter()
            .filter_map(|uri| Url::parse(uri).ok())
            .any(|uri| uri.origin().ascii_serialization() == origin)
    }))
}

/// Every client, oldest first.
///
/// # Errors
/// On a database failure.
pub async fn list(db: &impl ConnectionTrait) -> Result<Vec<Client>> {
    Ok(oauth_clients::Entity::find()
        .order_by_asc(oauth_clients::Column::CreatedAt)
        .all(db)
        .await?
        .into_iter()
        .map(Client::from)
        .collect())
}

/// The client with this id.
///
/// # Errors
/// On a database failure.
pub async fn find(db: &impl ConnectionTrait, client_id: &str) -> Result<Option<Client>> {
    if client_id.is_empty() || client_id.len() > 64 || client_id.chars().any(char::is_control) {
        return Ok(None);
    }
    Ok(oauth_clients::Entity::find_by_id(client_id.to_owned())
        .one(db)
        .await?
        .map(Client::from))
}

/// Gives a confidential client a new secret (the old one stops working); returns it once.
///
/// # Errors
/// 404 for an unknown client; 400 for a public one.
pub async fn rotate_secret(db: &impl ConnectionTrait, client_id: &str) -> Result<String> {
    let row = oauth_clients::Entity::find_by_id(client_id.to_owned())
        .one(db)
        .await?
        .ok_or_else(|| Error::NotFound("No client with this id".to_owned()))?;
    if row.secret_hash.is_none() {
        return Err(Error::BadRequest("A public client has no secret".to_owned()));
    }
    let secret = tokens::random_token();
    let mut row: oauth_clients::ActiveModel = row.into();
    row.secret_hash = Set(Some(tokens::sha256_hex(&secret)));
    row.update(db).await?;
    Ok(secret)
}

/// Deletes a client with its codes, tokens and consents.
///
/// # Errors
/// 404 for an unknown client.
pub async fn delete(db: &impl ConnectionTrait, client_id: &str) -> Result<()> {
    let gone = oauth_clients::Entity::delete_by_id(client_id.to_owned())
        .exec(db)
        .await?;
    if gone.rows_affected == 0 {
        return Err(Error::NotFound("No client with this id".to_owned()));
    }
    Ok(())
}

/// `client_id:client_secret` from `Authorization: Basic`, form-decoded as RFC 6749 asks.
fn basic_credentials(value: &str) -> Option<(String, String)> {
    let encoded = value
        .strip_prefix("Basic ")
        .or_else(|| value.strip_prefix("basic "))?;
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    let unescape = |s: &str| {
        url::form_urlencoded::parse(format!("v={s}").as_bytes())
            .next()
            .map(|(_, v)| v.into_owned())
    };
    Some((unescape(id)?, unescape(secret)?))
}

/// What a token or revocation request presents to prove its client: `client_secret_basic`,
/// `client_secret_post`, or a public client's id alone (PKCE proves the rest).
pub struct Credentials {
    pub client_id: String,
    secret: Option<String>,
}

impl Credentials {
    /// The credentials of a request: its `Authorization` header when it has one, else the
    /// form's `client_id` and `client_secret`.
    ///
    /// # Errors
    /// `invalid_client` (401) for an `Authorization` header that is not Basic credentials.
    pub fn of(
        authorization: Option<&str>,
        form_id: Option<&str>,
        form_secret: Option<&str>,
    ) -> std::result::Result<Self, OAuthError> {
        let (client_id, secret) = match authorization.map(basic_credentials) {
            // One method per request (RFC 6749, section 2.3): a secret in the body as well is
            // refused, and so is a body naming another client than the header.
            Some(Some(_)) if form_secret.is_some() => {
                return Err(OAuthError::invalid_request(
                    "Authenticate the client one way: the Authorization header or client_secret, not both",
                ));
            }
            Some(Some((id, _))) if form_id.is_some_and(|form_id| form_id != id) => {
                return Err(OAuthError::invalid_request(
                    "client_id does not match the client of the Authorization header",
                ));
            }
            Some(Some((id, secret))) => (id, Some(secret)),
            Some(None) => return Err(OAuthError::invalid_client()),
            None => (
                form_id.unwrap_or_default().to_owned(),
                form_secret.map(str::to_owned),
            ),
        };
        Ok(Self { client_id, secret })
    }

    /// The client, when these credentials prove it: `client` is the one stored under their
    /// client id, as read.
    ///
    /// # Errors
    /// `invalid_client` (401) for an unknown client, a wrong or missing secret, or a secret
    /// sent for a public client.
    pub fn prove(&self, client: Option<Client>) -> std::result::Result<Client, OAuthError> {
        let client = client
            .filter(|client| client.client_id == self.client_id)
            .ok_or_else(OAuthError::invalid_client)?;
        match (&client.secret_hash, &self.secret) {
            (None, None) => Ok(client),
            (Some(hash), Some(secret)) if tokens::same(hash, &tokens::sha256_hex(secret)) => Ok(client),
            _ => Err(OAuthError::invalid_client()),
        }
    }

    /// Reads the client and proves it.
    ///
    /// # Errors
    /// `invalid_client` (401) as [`Self::prove`]; the OAuth error of a database failure.
    pub async fn authenticate(&self, db: &impl ConnectionTrait) -> std::result::Result<Client, OAuthError> {
        self.prove(find(db, &self.client_id).await?)
    }
}

/// An application a person has allowed to sign them in (a remembered consent).
#[derive(Debug, Clone)]
pub struct AuthorizedApp {
    pub client_id: String,
    pub name: String,
    pub scopes: Vec<String>,
    pub since: chrono::DateTime<Utc>,
}

/// The applications `user_id` has allowed, newest first.
///
/// # Errors
/// On a database failure.
pub async fn authorized_apps(db: &impl ConnectionTrait, user_id: uuid::Uuid) -> Result<Vec<AuthorizedApp>> {
    use entity::oauth_consents;
    use sea_orm::{ColumnTrait, QueryFilter};
    let consents = oauth_consents::Entity::find()
        .filter(oauth_consents::Column::UserId.eq(user_id))
        .order_by_desc(oauth_consents::Column::CreatedAt)
        .all(db)
        .await?;
    let mut apps = Vec::with_capacity(consents.len());
    for consent in consents {
        if let Some(client) = find(db, &consent.client_id).await? {
            apps.push(AuthorizedApp {
                client_id: client.client_id,
                name: client.name,
                scopes: consent.scope.split(' ').map(str::to_owned).collect(),
                since: consent.created_at,
            });
        }
    }
    Ok(apps)
}

/// Takes back a person's consent to a client, with every token it holds for them and every
/// code not yet exchanged (one issued a moment before would otherwise still buy tokens).
///
/// # Errors
/// 404 when the person had not allowed this client.
pub async fn revoke_access(db: &DatabaseConnection, user_id: uuid::Uuid, client_id: &str) -> Result<()> {
    use entity::{oauth_codes, oauth_consents, oauth_tokens};
    use sea_orm::{ColumnTrait, QueryFilter};
    let txn = crate::db::begin_write(db).await?;
    let gone = oauth_consents::Entity::delete_many()
        .filter(oauth_consents::Column::UserId.eq(user_id))
        .filter(oauth_consents::Column::ClientId.eq(client_id))
        .exec(&txn)
        .await?;
    if gone.rows_affected == 0 {
        return Err(Error::NotFound(
            "This application has no access to your account".to_owned(),
        ));
    }
    oauth_codes::Entity::delete_many()
        .filter(oauth_codes::Column::UserId.eq(user_id))
        .filter(oauth_codes::Column::ClientId.eq(client_id))
        .filter(oauth_codes::Column::UsedAt.is_null())
        .exec(&txn)
        .await?;
    oauth_tokens::Entity::delete_many()
        .filter(oauth_tokens::Column::UserId.eq(user_id))
        .filter(oauth_tokens::Column::ClientId.eq(client_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::is_public;

    #[test]
    fn only_public_addresses_are_public_whatever_they_are_wrapped_in() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.1",
            "169.254.169.254",
            "100.64.0.1",
            "192.0.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "::1",
            "::ffff:10.0.0.1",
            "::10.0.0.1",
            "fd00::1",
            "fe80::1",
            "64:ff9b::a00:1",
            "64:ff9b:1::a00:1",
            "2002:a00:1::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }
}
