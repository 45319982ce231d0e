//! Profile update: every field of the user but email, role and status.

use crate::patch::{Patch, object_or_null};
use chrono::{Datelike, NaiveDate, Utc};
use entity::users;
use sea_orm::{ActiveModelTrait, Set};

use super::{
    fields::{CountryCode, MAX_BIO, MAX_STRING, Name, Phone},
    sessions::Viewer,
};
use crate::error::{FieldErrors, Result};

pub const UPDATED: &str = "Profile updated";

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SocialForm {
    pub github: Patch<String>,
    pub linkedin: Patch<String>,
    pub instagram: Patch<String>,
    pub twitter: Patch<String>,
    pub facebook: Patch<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AddressForm {
    pub street: Patch<String>,
    pub city: Patch<String>,
    pub state: Patch<String>,
    pub zip: Patch<String>,
    pub country: Patch<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NotificationsForm {
    pub email: Option<bool>,
    pub sms: Option<bool>,
    pub push: Option<bool>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PreferencesForm {
    #[serde(deserialize_with = "object_or_null")]
    pub notifications: Option<NotificationsForm>,
    /// light or dark.
    pub theme: Option<String>,
}

/// A partial update: a field left out stays as it is; `null` clears an optional field.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ProfileForm {
    pub name: Option<String>,
    pub country_code: Option<String>,
    pub phone: Option<String>,
    pub bio: Patch<String>,
    /// An http(s) URL.
    pub website: Patch<String>,
    /// A past date, `YYYY-MM-DD`.
    pub born: Patch<String>,
    #[serde(deserialize_with = "object_or_null")]
    pub social: Option<SocialForm>,
    #[serde(deserialize_with = "object_or_null")]
    pub address: Option<AddressForm>,
    #[serde(deserialize_with = "object_or_null")]
    pub preferences: Option<PreferencesForm>,
}

/// Applies `form` to the viewer's account and returns the account as saved.
///
/// # Errors
/// Field errors for every invalid field at once, keyed by JSON path (`social.github`).
#[tracing::instrument(skip_all)]
pub async fn update(
    db: &impl sea_orm::ConnectionTrait,
    viewer: Viewer,
    form: ProfileForm,
) -> Result<users::Model> {
    let mut errors = FieldErrors::new();
    let user = viewer.user;
    let mut row: users::ActiveModel = user.clone().into();

    if let Some(name) = form.name.as_deref()
        && let Some(name) = errors.check("name", Name::parse(Some(name), "Name"))
    {
        row.name = Set(name.into_inner());
    }
    if form.country_code.is_some() || form.phone.is_some() {
        let code_text = form.country_code.as_deref().unwrap_or(&user.country_code);
        let code = errors.check("countryCode", CountryCode::parse(Some(code_text)));
        let phone_text = form.phone.clone().unwrap_or_else(|| user.phone.clone());
        // A stored phone carries the old code; take its digits when only the code changes.
        let phone_text = if form.phone.is_none() {
            phone_text
                .trim_start_matches(user.country_code.as_str())
                .to_owned()
        } else {
            phone_text
        };
        // The phone is checked even when the code is wrong: every invalid field at once.
        let phone = errors.check("phone", Phone::parse(Some(&phone_text), code.as_ref()));
        if let (Some(code), Some(phone)) = (code, phone) {
            row.country_code = Set(code.as_str().to_owned());
            row.phone = Set(phone.into_inner());
        }
    }
    if let Some(bio) = text(&mut errors, ("bio", "Bio"), form.bio, MAX_BIO) {
        row.bio = Set(bio);
    }
    if let Some(website) = text(&mut errors, ("website", "Website"), form.website, MAX_STRING) {
        if website.as_deref().is_some_and(|w| !is_web_url(w)) {
            errors.add("website", "Website must be a valid http(s) URL");
        } else {
            row.website = Set(website);
        }
    }
    match form.born {
        Patch::Unchanged => {}
        Patch::Clear => row.born = Set(None),
        Patch::Set(born) if born.trim().is_empty() => row.born = Set(None),
        Patch::Set(born) => match parse_born(born.trim()) {
            Ok(date) => row.born = Set(Some(date)),
            Err(message) => errors.add("born", message),
        },
    }
    if let Some(social) = form.social {
        let fields = [
            (("social.github", "GitHub"), social.github, &mut row.social_github),
            (
                ("social.linkedin", "LinkedIn"),
                social.linkedin,
                &mut row.social_linkedin,
            ),
            (
                ("social.instagram", "Instagram"),
                social.instagram,
                &mut row.social_instagram,
            ),
            (
                ("social.twitter", "Twitter"),
                social.twitter,
                &mut row.social_twitter,
            ),
            (
                ("social.facebook", "Facebook"),
                social.facebook,
                &mut row.social_facebook,
            ),
        ];
        for (field, value, column) in fields {
            if let Some(value) = text(&mut errors, field, value, MAX_STRING) {
                *column = Set(value);
            }
        }
    }
    if let Some(address) = form.address {
        let fields = [
            (
                ("address.street", "Street"),
                address.street,
                &mut row.address_street,
            ),
            (("address.city", "City"), address.city, &mut row.address_city),
            (("address.state", "State"), address.state, &mut row.address_state),
            (("address.zip", "ZIP code"), address.zip, &mut row.address_zip),
            (
                ("address.country", "Country"),
                address.country,
                &mut row.address_country,
            ),
        ];
        for (field, value, column) in fields {
            if let Some(value) = text(&mut errors, field, value, MAX_STRING) {
                *column = Set(value);
            }
        }
    }
    if let Some(preferences) = form.preferences {
        if let Some(notifications) = preferences.notifications {
            if let Some(email) = notifications.email {
                row.notify_email = Set(email);
            }
            if let Some(sms) = notifications.sms {
                row.notify_sms = Set(sms);
            }
            if let Some(push) = notifications.push {
                row.notify_push = Set(push);
            }
        }
        match preferences.theme.as_deref().map(str::trim) {
            None => {}
            Some(theme @ ("light" | "dark")) => row.theme = Set(theme.to_owned()),
            Some(_) => errors.add("preferences.theme", "Theme must be light or dark"),
        }
    }
    errors.into_result()?;
    row.updated_at = Set(Utc::now());
    let renamed = row.name.is_set();
    let user = row.update(db).await?;
    if renamed {
        crate::organizations::members::renamed(db, user.id, &user.name).await?;
    }
    Ok(user)
}

/// An optional text field, `(its JSON name, its label)`: `Some(new value)` when it changes,
/// recording a length error. The message names the field, since the toast that repeats the
/// first one has no field beside it.
fn text(
    errors: &mut FieldErrors,
    (field, label): (&str, &str),
    value: Patch<String>,
    max: usize,
) -> Option<Option<String>> {
    match value {
        Patch::Unchanged => None,
        Patch::Clear => Some(None),
        Patch::Set(v) => {
            let v = v.trim();
            if v.chars().count() > max {
                errors.add(field, format!("{label} must be at most {max} characters"));
                None
            } else if super::fields::has_stray_control(v) {
                errors.add(field, format!("{label} must not contain control characters"));
                None
            } else if v.is_empty() {
                Some(None)
            } else {
                Some(Some(v.to_owned()))
            }
        }
    }
}

fn is_web_url(value: &str) -> bool {
    url::Url::parse(value).is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some())
}

/// A date of birth: `YYYY-MM-DD` exactly (ten characters that chrono reads and writes back as
/// they were sent, so neither `1990-1-2` nor `-2000-01-01` is one), in the past, and no earlier
/// than 1900.
fn parse_born(text: &str) -> Result<NaiveDate, &'static str> {
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .filter(|date| text.len() == 10 && date.format("%Y-%m-%d").to_string() == text)
        .ok_or("Date of birth must be a date in the format YYYY-MM-DD")?;
    if date.year() < 1900 {
        Err("Date of birth must be in 1900 or later")
    } else if date >= Utc::now().date_naive() {
        Err("Date of birth must be a date in the past")
    } else {
        Ok(date)
    }
}
