//! The public shapes of the API. Built from entities, never the entities themselves: a
//! password hash or a lockout counter cannot leak by accident. They also serialise with serde
//! to exactly the JSON GraphQL gives, for the REST routes that skip GraphQL on hot paths.

use async_graphql::{ID, SimpleObject};
use chrono::{DateTime, Datelike, Timelike, Utc};
use entity::users;
use serde::{Serialize, Serializer};

/// Timestamps as GraphQL writes them (`to_rfc3339`), so REST answers that skip GraphQL for
/// speed serialise to the very same JSON. Written digit by digit: chrono's formatter took
/// 3,700 instructions a timestamp, a tenth of a session check.
pub fn rfc3339<S: Serializer>(at: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    let mut buffer = [0; 35];
    match write_rfc3339(at, &mut buffer) {
        Some(text) => serializer.serialize_str(text),
        // Years beyond four digits and leap seconds, which no stored time has.
        None => serializer.serialize_str(&at.to_rfc3339()),
    }
}

/// `at` as `to_rfc3339` writes it (`2026-11-27T08:09:10.123+00:00`: the fraction in 3, 6 or 9
/// digits, or none), or `None` outside years 0-9999 and for a leap second.
fn write_rfc3339<'a>(at: &DateTime<Utc>, buffer: &'a mut [u8; 35]) -> Option<&'a str> {
    fn digits(buffer: &mut [u8], value: u32) {
        let mut value = value;
        for slot in buffer.iter_mut().rev() {
            *slot = b'0' + (value % 10) as u8;
            value /= 10;
        }
    }
    let year = u32::try_from(at.year()).ok().filter(|&year| year <= 9999)?;
    let nanos = at.nanosecond();
    if nanos >= 1_000_000_000 {
        return None;
    }
    buffer[..20].copy_from_slice(b"0000-00-00T00:00:00.");
    digits(&mut buffer[0..4], year);
    digits(&mut buffer[5..7], at.month());
    digits(&mut buffer[8..10], at.day());
    digits(&mut buffer[11..13], at.hour());
    digits(&mut buffer[14..16], at.minute());
    digits(&mut buffer[17..19], at.second());
    let fraction = match nanos {
        0 => 0,
        _ if nanos.is_multiple_of(1_000_000) => 3,
        _ if nanos.is_multiple_of(1_000) => 6,
        _ => 9,
    };
    let mut end = 19;
    if fraction > 0 {
        digits(
            &mut buffer[20..20 + fraction],
            nanos / 10u32.pow(9 - fraction as u32),
        );
        end = 20 + fraction;
    }
    buffer[end..end + 6].copy_from_slice(b"+00:00");
    std::str::from_utf8(&buffer[..end + 6]).ok()
}

/// [`rfc3339`] for an optional timestamp.
#[allow(clippy::ref_option)]
pub fn rfc3339_opt<S: Serializer>(at: &Option<DateTime<Utc>>, serializer: S) -> Result<S::Ok, S::Error> {
    match at {
        Some(at) => rfc3339(at, serializer),
        None => serializer.serialize_none(),
    }
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct Social {
    pub github: Option<String>,
    pub linkedin: Option<String>,
    pub instagram: Option<String>,
    pub twitter: Option<String>,
    pub facebook: Option<String>,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct Address {
    pub street: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip: Option<String>,
    pub country: Option<String>,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct Notifications {
    pub email: bool,
    pub sms: bool,
    pub push: bool,
}

#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct Preferences {
    pub notifications: Notifications,
    /// light or dark.
    pub theme: String,
}

/// An account as its owner (or an admin) sees it.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: ID,
    pub name: String,
    pub email: String,
    pub country_code: String,
    /// The country code joined with the digits, e.g. `+919876543210`.
    pub phone: String,
    pub bio: Option<String>,
    pub website: Option<String>,
    /// `YYYY-MM-DD`.
    pub born: Option<String>,
    /// career, campus, hire or admin.
    pub role: String,
    /// pending until the email is verified, then active; suspended when blocked.
    pub status: String,
    pub email_verified: bool,
    pub two_factor_enabled: bool,
    pub social: Social,
    pub address: Address,
    pub preferences: Preferences,
    #[serde(serialize_with = "rfc3339")]
    pub created_at: DateTime<Utc>,
    #[serde(serialize_with = "rfc3339")]
    pub updated_at: DateTime<Utc>,
}

impl From<users::Model> for User {
    fn from(u: users::Model) -> Self {
        Self {
            id: ID(u.id.to_string()),
            name: u.name,
            email: u.email,
            country_code: u.country_code,
            phone: u.phone,
            bio: u.bio,
            website: u.website,
            born: u.born.map(|d| d.format("%Y-%m-%d").to_string()),
            role: u.role.as_str().to_owned(),
            status: u.status.as_str().to_owned(),
            email_verified: u.email_verified,
            two_factor_enabled: u.two_factor_enabled,
            social: Social {
                github: u.social_github,
                linkedin: u.social_linkedin,
                instagram: u.social_instagram,
                twitter: u.social_twitter,
                facebook: u.social_facebook,
            },
            address: Address {
                street: u.address_street,
                city: u.address_city,
                state: u.address_state,
                zip: u.address_zip,
                country: u.address_country,
            },
            preferences: Preferences {
                notifications: Notifications {
                    email: u.notify_email,
                    sms: u.notify_sms,
                    push: u.notify_push,
                },
                theme: u.theme,
            },
            created_at: u.created_at,
            updated_at: u.updated_at,
        }
    }
}

/// A signed-in device of the viewer's.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub id: ID,
    /// The browser as its user agent names it, e.g. "Chrome 120".
    pub browser: String,
    /// The operating system, e.g. "Mac OSX".
    pub os: String,
    pub ip: Option<String>,
    #[serde(serialize_with = "rfc3339")]
    pub signed_in_at: DateTime<Utc>,
    #[serde(serialize_with = "rfc3339")]
    pub last_active_at: DateTime<Utc>,
    /// The session of this request.
    pub current: bool,
}

impl From<crate::accounts::sessions::Device> for Session {
    fn from(device: crate::accounts::sessions::Device) -> Self {
        Self {
            id: ID(device.id.to_string()),
            browser: device.browser,
            os: device.os,
            ip: device.ip,
            signed_in_at: device.signed_in_at,
            last_active_at: device.last_active_at,
            current: device.current,
        }
    }
}

/// What a sign-in link shows before it is used: the account it signs in to.
#[derive(SimpleObject, Serialize, Clone, Debug)]
pub struct MagicLinkDetails {
    pub email: String,
}

/// A call whose only result is its message.
#[derive(SimpleObject, Clone, Debug)]
pub struct MessagePayload {
    pub message: String,
}

impl MessagePayload {
    pub fn new(message: &str) -> Self {
        Self {
            message: message.to_owned(),
        }
    }
}

/// A call that returns an account.
#[derive(SimpleObject, Clone, Debug)]
pub struct UserPayload {
    pub message: String,
    pub user: User,
}

/// A sign-in: the account and its session token (also set as the session cookie).
#[derive(SimpleObject, Clone, Debug)]
pub struct SessionPayload {
    pub message: String,
    pub user: User,
    pub token: String,
}

/// The first step of a sign-in: a session (`user` and `token`), or, when the account has
/// two-factor on, `twoFactorRequired` and the `challenge` to send with the code to
/// `completeTwoFactorLogin`.
#[derive(SimpleObject, Clone, Debug)]
pub struct SignInPayload {
    pub message: String,
    pub user: Option<User>,
    pub token: Option<String>,
    pub two_factor_required: bool,
    pub challenge: Option<String>,
}

/// A Google registration: like a sign-in, and whether the account was created just now.
#[derive(SimpleObject, Clone, Debug)]
pub struct GoogleSessionPayload {
    pub message: String,
    pub user: Option<User>,
    pub token: Option<String>,
    pub two_factor_required: bool,
    pub challenge: Option<String>,
    pub created: bool,
}

/// A started two-factor enrolment: the secret for the authenticator app, as text and as the
/// `otpauth://` URI its QR code carries.
#[derive(SimpleObject, Serialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorSetup {
    pub secret: String,
    pub otpauth_uri: String,
}

/// Two-factor turned on: the recovery codes, shown this once.
#[derive(SimpleObject, Clone, Debug)]
pub struct RecoveryCodesPayload {
    pub message: String,
    pub recovery_codes: Vec<String>,
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn timestamps_are_written_as_to_rfc3339_writes_them() {
        let base = Utc.with_ymd_and_hms(2026, 11, 27, 8, 9, 10).unwrap();
        let times = [0, 120_000_000, 123_456_000, 123_456_789, 999_999_999, 1_000, 7]
            .map(|nanos| base + chrono::Duration::nanoseconds(nanos))
            .into_iter()
            .chain([
                Utc.with_ymd_and_hms(1, 1, 1, 0, 0, 0).unwrap(),
                Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap(),
                Utc.with_ymd_and_hms(10_000, 1, 1, 0, 0, 0).unwrap(),
                Utc.with_ymd_and_hms(-1, 6, 15, 12, 30, 0).unwrap(),
            ]);
        for at in times {
            let mut json = Vec::new();
            rfc3339(&at, &mut serde_json::Serializer::new(&mut json)).unwrap();
            assert_eq!(
                String::from_utf8(json).unwrap(),
                format!("\"{}\"", at.to_rfc3339())
            );
            // Written by our own writer within four-digit years, by chrono beyond them.
            let written = write_rfc3339(&at, &mut [0; 35]).map(str::to_owned);
            assert_eq!(written.is_some(), (0..=9999).contains(&at.year()), "{at:?}");
        }
    }
}
