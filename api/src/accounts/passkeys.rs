//! Passkeys: WebAuthn credentials that sign a person in without a password, and count as both
//! factors. webauthn-rs does the ceremony's checks (origin, RP id, challenge, signature, user
//! verification, sign count); this module keeps its state between start and finish in the
//! database (so any instance finishes what another started), owns the credential records and
//! decides who is signed in.
//!
//! - The relying party is the main site: RP id = the host of `MAIN_PLATFORM_URL`, origin = that
//!   URL. An IP address cannot be an RP id; there passkeys are off and the calls answer 404.
//! - Credentials are discoverable (resident) with user verification required, ES256 or RS256,
//!   attestation `none`. Their user handle is the account's id.
//! - A ceremony is found by its challenge, taken once, and lives five minutes.
//! - A credential id belongs to one account; a sign count that goes backwards is refused and
//!   audited (a cloned key).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Duration, Utc};
use entity::{passkey_ceremonies, passkeys, users};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, Set, sea_query::Expr,
};
use serde::Deserialize;
use uuid::Uuid;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Webauthn, WebauthnBuilder, WebauthnError,
};
use webauthn_rs_proto::ResidentKeyRequirement;

use super::{
    identities::{LAST_WAY_IN, WaysIn},
    sessions::{self, SignedIn, Viewer},
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    config::Config,
    context::Context,
    error::{Error, FieldErrors, Result, is_unique_violation},
    mail::{self, NewWayIn},
};

/// How long a started registration or sign-in may be finished.
pub const CEREMONY_LIFETIME: Duration = Duration::minutes(5);
pub const MAX_NAME: usize = 64;
/// Passkeys one account may hold: far more than devices a person owns, few enough that an
/// account cannot be used to fill the table.
pub const MAX_PER_ACCOUNT: u64 = 50;

/// How long a credential id may be, in bytes (see [`finish_registration`]).
const CREDENTIAL_ID_BYTES: std::ops::RangeInclusive<usize> = 16..=1023;
pub const DEFAULT_NAME: &str = "Passkey";

pub const ADDED: &str = "Passkey added";
pub const RENAMED: &str = "Passkey renamed";
pub const REMOVED: &str = "Passkey removed";
pub const NOT_FOUND: &str = "Passkey not found";
pub const UNAVAILABLE: &str = "Passkeys are not available on this site";
pub const NAME_REQUIRED: &str = "Passkey name is required";
pub const NAME_TOO_LONG: &str = "Passkey name must be at most 64 characters";
pub const NAME_CONTROL: &str = "Passkey name cannot contain control characters";
pub const TOO_MANY: &str = "An account can hold at most 50 passkeys";
pub const CHALLENGE_REQUIRED: &str = "Challenge is required";
pub const CREDENTIAL_REQUIRED: &str = "Credential is required";

/// The relying party of `config`'s main site, or `None` where WebAuthn cannot work (an IP
/// address for a host).
pub fn relying_party(config: &Config) -> Option<Webauthn> {
    let origin = Url::parse(&config.platforms.main).ok()?;
    let rp_id = origin.domain()?.to_owned();
    let built = WebauthnBuilder::new(&rp_id, &origin)
        .map(|builder| {
            builder
                .rp_name(&config.app_name)
                .timeout(CEREMONY_LIFETIME.to_std().unwrap_or_default())
        })
        .and_then(WebauthnBuilder::build);
    match built {
        Ok(webauthn) => Some(webauthn),
        Err(err) => {
            tracing::warn!(error = %err, origin = %origin, "passkeys are off: the main site cannot be a WebAuthn relying party");
            None
        }
    }
}

/// A passkey as its owner sees it.
#[derive(Debug, Clone)]
pub struct PasskeyInfo {
    pub id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
}

impl From<passkeys::Model> for PasskeyInfo {
    fn from(row: passkeys::Model) -> Self {
        Self {
            id: row.id,
            name: row.name,
            created_at: row.created_at,
            last_used_at: row.last_used_at,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RegistrationForm {
    pub name: Option<String>,
    pub credential: Option<serde_json::Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct RenameForm {
    pub name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SignInForm {
    pub challenge: Option<String>,
    pub credential: Option<serde_json::Value>,
}

/// A sign-in begun: the browser's request options, and the challenge to send back with the
/// assertion.
#[derive(Debug)]
pub struct SignInStart {
    pub options: serde_json::Value,
    pub challenge: String,
}

fn webauthn(ctx: &Context) -> Result<&Webauthn> {
    ctx.webauthn
        .as_deref()
        .ok_or_else(|| Error::NotFound(UNAVAILABLE.to_owned()))
}

fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn to_json(value: &impl serde::Serialize) -> Result<String> {
    serde_json::to_string(value).map_err(Error::internal)
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(Error::internal)
}

/// `None` for a blank name (the caller decides what that means); field errors for a bad one.
fn parse_name(name: Option<&str>) -> Result<Option<String>> {
    let Some(name) = name.map(str::trim).filter(|name| !name.is_empty()) else {
        return Ok(None);
    };
    if name.chars().count() > MAX_NAME {
        return Err(Error::field("name", NAME_TOO_LONG));
    }
    if name.chars().any(super::fields::is_hidden_or_control) {
        return Err(Error::field("name", NAME_CONTROL));
    }
    Ok(Some(name.to_owned()))
}

async fn save_ceremony(
    db: &impl ConnectionTrait,
    challenge: &str,
    user_id: Option<Uuid>,
    state: String,
) -> Result<()> {
    passkey_ceremonies::ActiveModel {
        challenge: Set(challenge.to_owned()),
        user_id: Set(user_id),
        state: Set(state),
        expires_at: Set(Utc::now() + CEREMONY_LIFETIME),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Takes a ceremony: found by its challenge (and owner), deleted in the same step, so of two
/// requests with one challenge only one gets it. `Ok(None)` when it is unknown or taken.
///
/// # Errors
/// 410 when it is past its lifetime (it is gone all the same).
async fn take_ceremony(
    db: &impl ConnectionTrait,
    challenge: &str,
    owner: Option<Uuid>,
) -> Result<Option<passkey_ceremonies::Model>> {
    if challenge.is_empty() || challenge.len() > 128 || challenge.chars().any(char::is_control) {
        return Ok(None);
    }
    let owned = match owner {
        Some(id) => passkey_ceremonies::Column::UserId.eq(id),
        None => passkey_ceremonies::Column::UserId.is_null(),
    };
    let Some(row) = passkey_ceremonies::Entity::find_by_id(challenge.to_owned())
        .filter(owned)
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let taken = passkey_ceremonies::Entity::delete_many()
        .filter(passkey_ceremonies::Column::Challenge.eq(challenge))
        .exec(db)
        .await?;
    if taken.rows_affected == 0 {
        return Ok(None);
    }
    if row.expires_at <= Utc::now() {
        return Err(Error::PasskeyCeremonyExpired);
    }
    Ok(Some(row))
}

async fn count_for(db: &impl ConnectionTrait, user_id: Uuid) -> Result<u64> {
    Ok(passkeys::Entity::find()
        .filter(passkeys::Column::UserId.eq(user_id))
        .count(db)
        .await?)
}

/// Begins adding a passkey to the viewer's account: the browser's creation options. A passkey
/// is a way in that survives a password reset, so it needs a recent sign-in: a stolen session
/// cannot leave one behind.
///
/// # Errors
/// 404 where passkeys are off; 403 `REAUTHENTICATION_REQUIRED` without a recent sign-in; 409
/// past [`MAX_PER_ACCOUNT`].
#[tracing::instrument(skip_all)]
pub async fn start_registration(ctx: &Context, viewer: &Viewer) -> Result<serde_json::Value> {
    let webauthn = webauthn(ctx)?;
    viewer.require_recent_sign_in()?;
    let user = &viewer.user;
    let existing = passkeys::Entity::find()
        .filter(passkeys::Column::UserId.eq(user.id))
        .all(&ctx.db)
        .await?;
    if existing.len() as u64 >= MAX_PER_ACCOUNT {
        return Err(Error::Conflict(TOO_MANY.to_owned()));
    }
    // The authenticators that already hold one of the account's passkeys are not asked again.
    let exclude = existing
        .iter()
        .map(|row| from_json::<Passkey>(&row.credential).map(|key| key.cred_id().clone()))
        .collect::<Result<Vec<_>>>()?;
    let (mut options, state) = webauthn
        .start_passkey_registration(user.id, &user.email, &user.name, Some(exclude))
        .map_err(Error::internal)?;
    // A passkey must be discoverable: the sign-in asks for no email first.
    if let Some(selection) = options.public_key.authenticator_selection.as_mut() {
        selection.resident_key = Some(ResidentKeyRequirement::Required);
        selection.require_resident_key = true;
    }
    let challenge = encode(options.public_key.challenge.as_ref());
    save_ceremony(&ctx.db, &challenge, Some(user.id), to_json(&state)?).await?;
    serde_json::to_value(&options.public_key).map_err(Error::internal)
}

/// The challenge a browser signed, read from its client data.
fn signed_challenge(client_data_json: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct ClientData {
        challenge: String,
    }
    let data: ClientData = serde_json::from_slice(client_data_json).ok()?;
    let bytes = URL_SAFE_NO_PAD
        .decode(data.challenge.trim_end_matches('='))
        .ok()?;
    Some(encode(&bytes))
}

/// Finishes adding a passkey: webauthn-rs checks the attestation against the started ceremony,
/// and the credential is kept under the name given (or "Passkey"). The owner is mailed, as a
/// passkey outlives a password reset.
///
/// # Errors
/// 400 'Passkey could not be verified' (a bad credential, an unknown or used ceremony, a
/// credential another account holds); 410 past the ceremony's five minutes; field errors for
/// the name.
#[tracing::instrument(skip_all)]
pub async fn finish_registration(
    ctx: &Context,
    viewer: &Viewer,
    form: RegistrationForm,
    client: &ClientInfo,
) -> Result<PasskeyInfo> {
    let webauthn = webauthn(ctx)?;
    let name = parse_name(form.name.as_deref())?.unwrap_or_else(|| DEFAULT_NAME.to_owned());
    let credential = form
        .credential
        .ok_or_else(|| Error::field("credential", CREDENTIAL_REQUIRED))?;
    let credential: RegisterPublicKeyCredential =
        serde_json::from_value(credential).map_err(|_| Error::PasskeyUnverified)?;
    let challenge =
        signed_challenge(credential.response.client_data_json.as_ref()).ok_or(Error::PasskeyUnverified)?;
    let ceremony = take_ceremony(&ctx.db, &challenge, Some(viewer.user.id))
        .await?
        .ok_or(Error::PasskeyUnverified)?;
    let state: PasskeyRegistration = from_json(&ceremony.state)?;
    let passkey = webauthn
        .finish_passkey_registration(&credential, &state)
        .map_err(|err| {
            tracing::info!(error = %err, "passkey registration refused");
            Error::PasskeyUnverified
        })?;
    // WebAuthn refuses a credential id past 1023 bytes (Level 3, 7.1); under 16 bytes no
    // authenticator made it (6.1 asks for 16 at least), and a short one, being unique across
    // accounts, could be taken to keep others from it. Either way the answers are kilobytes of
    // every later `excludeCredentials`, or nothing to name a key by.
    if !CREDENTIAL_ID_BYTES.contains(&passkey.cred_id().as_ref().len()) {
        return Err(Error::PasskeyUnverified);
    }
    if count_for(&ctx.db, viewer.user.id).await? >= MAX_PER_ACCOUNT {
        return Err(Error::Conflict(TOO_MANY.to_owned()));
    }
    let row = passkeys::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(viewer.user.id),
        credential_id: Set(encode(passkey.cred_id().as_ref())),
        name: Set(name),
        credential: Set(to_json(&passkey)?),
        created_at: Set(Utc::now()),
        last_used_at: Set(None),
    };
    let txn = crate::db::begin_write(&ctx.db).await?;
    let row = match row.insert(&txn).await {
        Ok(row) => row,
        Err(err) => {
            txn.rollback().await?;
            return Err(
                if is_unique_violation(&err, "passkeys_credential_id_key", "passkeys.credential_id") {
                    Error::PasskeyUnverified
                } else {
                    err.into()
                },
            );
        }
    };
    let user = &viewer.user;
    let notice = mail::sign_in_added(
        &ctx.config.app_name,
        &user.email,
        &user.name,
        NewWayIn::Passkey,
        &ctx.config.platforms.main,
    );
    mail::enqueue(&txn, notice.about(user.id)).await?;
    Event::new(Kind::PasskeyAdded, Some(user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(row.into())
}

/// The viewer's passkeys, newest first.
///
/// # Errors
/// On a database failure.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<Vec<PasskeyInfo>> {
    Ok(passkeys::Entity::find()
        .filter(passkeys::Column::UserId.eq(viewer.user.id))
        .order_by_desc(passkeys::Column::CreatedAt)
        .order_by_desc(passkeys::Column::Id)
        .all(&ctx.db)
        .await?
        .into_iter()
        .map(PasskeyInfo::from)
        .collect())
}

/// One of the viewer's passkeys; another person's answers exactly like one that does not exist.
async fn own(ctx: &Context, viewer: &Viewer, id: &str) -> Result<passkeys::Model> {
    let not_found = || Error::NotFound(NOT_FOUND.to_owned());
    let id = Uuid::parse_str(id).map_err(|_| not_found())?;
    passkeys::Entity::find_by_id(id)
        .filter(passkeys::Column::UserId.eq(viewer.user.id))
        .one(&ctx.db)
        .await?
        .ok_or_else(not_found)
}

/// Renames one of the viewer's passkeys.
///
/// # Errors
/// Field errors for the name; 404 for an id that is not one of the viewer's passkeys.
#[tracing::instrument(skip_all)]
pub async fn rename(
    ctx: &Context,
    viewer: &Viewer,
    id: &str,
    form: RenameForm,
    client: &ClientInfo,
) -> Result<PasskeyInfo> {
    let name = parse_name(form.name.as_deref())?;
    let row = own(ctx, viewer, id).await?;
    let Some(name) = name else {
        let mut errors = FieldErrors::new();
        errors.add("name", NAME_REQUIRED);
        return Err(Error::Validation(errors));
    };
    let mut active: passkeys::ActiveModel = row.into();
    active.name = Set(name);
    let row = active.update(&ctx.db).await?;
    Event::new(Kind::PasskeyRenamed, Some(viewer.user.id), client)
        .record(&ctx.db)
        .await?;
    Ok(row.into())
}

/// Removes one of the viewer's passkeys; it signs no one in from then on. Like disconnecting
/// a provider's account, it needs a recent sign-in and is refused for the last way in.
///
/// # Errors
/// 404 for an id that is not one of the viewer's passkeys; 403 `REAUTHENTICATION_REQUIRED`; 409
/// 'Add a password or another sign-in method first'.
#[tracing::instrument(skip_all)]
pub async fn remove(ctx: &Context, viewer: &Viewer, id: &str, client: &ClientInfo) -> Result<()> {
    let row = own(ctx, viewer, id).await?;
    viewer.require_recent_sign_in()?;
    let txn = crate::db::begin_write(&ctx.db).await?;
    let ways_in = WaysIn::locked(&txn, viewer.user.id).await?;
    // Removed meanwhile (a second click): gone is 404, whatever is left.
    if passkeys::Entity::find_by_id(row.id).one(&txn).await?.is_none() {
        txn.rollback().await?;
        return Err(Error::NotFound(NOT_FOUND.to_owned()));
    }
    if ways_in.is_last() {
        txn.rollback().await?;
        return Err(Error::Conflict(LAST_WAY_IN.to_owned()));
    }
    let gone = passkeys::Entity::delete_many()
        .filter(passkeys::Column::Id.eq(row.id))
        .filter(passkeys::Column::UserId.eq(viewer.user.id))
        .exec(&txn)
        .await?;
    if gone.rows_affected == 0 {
        txn.rollback().await?;
        return Err(Error::NotFound(NOT_FOUND.to_owned()));
    }
    Event::new(Kind::PasskeyRemoved, Some(viewer.user.id), client)
        .record(&txn)
        .await?;
    txn.commit().await?;
    Ok(())
}

/// Begins a sign-in with a passkey: request options with no credentials listed (the browser
/// offers the site's discoverable passkeys), and the challenge that names the ceremony.
///
/// # Errors
/// 404 where passkeys are off.
#[tracing::instrument(skip_all)]
pub async fn start_sign_in(ctx: &Context) -> Result<SignInStart> {
    let webauthn = webauthn(ctx)?;
    let (options, state) = webauthn
        .start_discoverable_authentication()
        .map_err(Error::internal)?;
    let challenge = encode(options.public_key.challenge.as_ref());
    save_ceremony(&ctx.db, &challenge, None, to_json(&state)?).await?;
    Ok(SignInStart {
        options: serde_json::to_value(&options.public_key).map_err(Error::internal)?,
        challenge,
    })
}

/// Finishes a sign-in with a passkey. The ceremony is spent before anything is checked, so an
/// assertion is good once. A passkey is both factors: the answer is a session, never a
/// two-factor challenge.
///
/// # Errors
/// 401 'Passkey not recognised' (unknown or used challenge, unknown credential, a bad
/// signature, a sign count gone backwards); 410 past the ceremony's five minutes; 403 for a
/// suspended account or an unverified email.
#[tracing::instrument(skip_all)]
pub async fn finish_sign_in(ctx: &Context, form: SignInForm, client: &ClientInfo) -> Result<SignedIn> {
    let webauthn = webauthn(ctx)?;
    let challenge = form.challenge.as_deref().map(str::trim).filter(|c| !c.is_empty());
    let mut errors = FieldErrors::new();
    if challenge.is_none() {
        errors.add("challenge", CHALLENGE_REQUIRED);
    }
    if form.credential.is_none() {
        errors.add("credential", CREDENTIAL_REQUIRED);
    }
    let (Some(challenge), Some(credential)) = (challenge, form.credential) else {
        return Err(Error::Validation(errors));
    };
    let ceremony = take_ceremony(&ctx.db, challenge, None)
        .await?
        .ok_or(Error::PasskeyNotRecognised)?;
    let state: DiscoverableAuthentication = from_json(&ceremony.state)?;
    let credential: PublicKeyCredential =
        serde_json::from_value(credential).map_err(|_| Error::PasskeyNotRecognised)?;
    let (user_id, credential_id) = webauthn
        .identify_discoverable_authentication(&credential)
        .map_err(|_| Error::PasskeyNotRecognised)?;
    let Some(row) = passkeys::Entity::find()
        .filter(
            Condition::all()
                .add(passkeys::Column::CredentialId.eq(encode(credential_id)))
                .add(passkeys::Column::UserId.eq(user_id)),
        )
        .one(&ctx.db)
        .await?
    else {
        return Err(Error::PasskeyNotRecognised);
    };
    let mut passkey: Passkey = from_json(&row.credential)?;
    let result = match webauthn.finish_discoverable_authentication(
        &credential,
        state,
        &[DiscoverableKey::from(&passkey)],
    ) {
        Ok(result) => result,
        Err(err) => {
            let kind = if matches!(err, WebauthnError::CredentialPossibleCompromise) {
                Kind::PasskeyCounterRegressed
            } else {
                Kind::SignInFailed
            };
            Event::new(kind, Some(row.user_id), client)
                .detail("passkey")
                .record(&ctx.db)
                .await?;
            return Err(Error::PasskeyNotRecognised);
        }
    };
    let user = users::Entity::find_by_id(row.user_id)
        .one(&ctx.db)
        .await?
        .ok_or(Error::PasskeyNotRecognised)?;
    super::ensure_can_sign_in(&user)?;
    if !user.email_verified {
        return Err(Error::EmailNotVerified);
    }
    passkey.update_credential(&result);
    // Written only over the very credential the count was checked against: of two sign-ins
    // with one key at once, the second finds it moved on and is refused, as a clone's would
    // be, so the stored count never goes back and no count signs in twice.
    let written = passkeys::Entity::update_many()
        .col_expr(passkeys::Column::Credential, Expr::value(to_json(&passkey)?))
        .col_expr(passkeys::Column::LastUsedAt, Expr::value(Some(Utc::now())))
        .filter(passkeys::Column::Id.eq(row.id))
        .filter(passkeys::Column::Credential.eq(row.credential))
        .exec(&ctx.db)
        .await?;
    if written.rows_affected == 0 {
        // Removed meanwhile, or moved on by another sign-in with the same key.
        let (kind, detail) = if passkeys::Entity::find_by_id(row.id).one(&ctx.db).await?.is_none() {
            (Kind::SignInFailed, "passkey removed during the sign-in")
        } else {
            (
                Kind::PasskeyCounterRegressed,
                "passkey used by two sign-ins at once",
            )
        };
        Event::new(kind, Some(row.user_id), client)
            .detail(detail)
            .record(&ctx.db)
            .await?;
        return Err(Error::PasskeyNotRecognised);
    }
    let signed_in = sessions::start(ctx, &ctx.db, user, client).await?;
    Event::new(Kind::SignIn, Some(signed_in.user.id), client)
        .detail("passkey")
        .record(&ctx.db)
        .await?;
    Ok(signed_in)
}
