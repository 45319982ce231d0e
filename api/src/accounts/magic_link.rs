//! Sign-in by a mailed link: asked for with an email, used once within 15 minutes. The request
//! answers, counts and works alike for an email with and without an account (it shares the
//! forgot-password throttle); using the link proves the email, and two-factor still applies.

use chrono::{Duration, Utc};
use entity::sign_in_links;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set, sea_query::Expr};
use uuid::Uuid;

use super::{
    fields::Email,
    password_reset::{link_request, note_no_account},
    tokens,
    two_factor::{self, SignInStep},
};
use crate::{
    audit::{Event, Kind},
    client::ClientInfo,
    context::Context,
    error::{Error, FieldErrors, Result},
    mail,
};

pub const LINK_TTL: Duration = Duration::minutes(15);
pub const LINK_SENT: &str = "If an account exists for this email, a sign-in link has been sent.";
pub const TOO_MANY_REQUESTS: &str = "Too many links asked for this email. Please try again later.";
pub const REDIRECT_RULE: &str = "Redirect must be a page of this site, such as /security";
pub const MAX_REDIRECT: usize = 512;

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MagicLinkForm {
    pub email: Option<String>,
    /// A page of this site to open once signed in (the page that asked the person to sign in
    /// again); the mailed link carries it. Absent, the link lands on the home page.
    pub redirect: Option<String>,
}

/// Whether `path` is a page of this site to come back to, as the site's own rule has it: one
/// leading '/', not '//' (another host to a browser), printable ASCII with no backslash.
pub fn is_return_path(path: &str) -> bool {
    path.len() <= MAX_REDIRECT
        && path.starts_with('/')
        && !path[1..].starts_with('/')
        && path.bytes().all(|b| b.is_ascii_graphic() && b != b'\\')
}

/// Mails a sign-in link when the account exists (and is not suspended), and a note that there
/// is none otherwise.
///
/// # Errors
/// Field errors; 429 past five requests for one email in fifteen minutes, counted with the
/// reset links.
#[tracing::instrument(skip_all)]
pub async fn request(ctx: &Context, form: MagicLinkForm, client: &ClientInfo) -> Result<()> {
    let redirect = match form.redirect.as_deref() {
        None | Some("") => None,
        Some(path) if is_return_path(path) => Some(path),
        // Refused with the email's own error, if it has one (every invalid field at once), and
        // before anything is counted against the address.
        Some(_) => {
            let mut errors = FieldErrors::new();
            if let Err(message) = Email::parse(form.email.as_deref()) {
                errors.add("email", message);
            }
            errors.add("redirect", REDIRECT_RULE);
            return Err(Error::Validation(errors));
        }
    };
    // The same counter as forgot-password: a mailbox gets at most five links of either kind.
    let request = link_request(ctx, form.email.as_deref(), TOO_MANY_REQUESTS).await?;
    let token = tokens::random_token();
    let now = Utc::now();
    let main = &ctx.config.platforms.main;
    let link = match redirect {
        Some(path) => {
            let query: String = url::form_urlencoded::byte_serialize(path.as_bytes()).collect();
            format!("{main}/magic-link/{token}?redirect={query}")
        }
        None => format!("{main}/magic-link/{token}"),
    };
    let txn = crate::db::begin_write(&ctx.db).await?;
    match &request.account {
        Some(user) => {
            let message = mail::sign_in_link(
                &ctx.config.app_name,
                &user.email,
                &user.name,
                &link,
                LINK_TTL.num_minutes(),
            );
            sign_in_links::ActiveModel {
                id: Set(Uuid::new_v4()),
                user_id: Set(user.id),
                token_hash: Set(tokens::sha256_hex(&token)),
                created_at: Set(now),
                expires_at: Set(now + LINK_TTL),
                used_at: Set(None),
            }
            .insert(&txn)
            .await?;
            mail::enqueue(&txn, message.about(user.id).secret_until(now + LINK_TTL)).await?;
            Event::new(Kind::SignInLinkRequested, Some(user.id), client)
                .record(&txn)
                .await?;
        }
        None => note_no_account(ctx, &txn, &request, mail::LinkAsked::SignIn).await?,
    }
    txn.commit().await?;
    ctx.mail_ready.notify_one();
    Ok(())
}

/// The email of the account a link's token signs in to, without using it: the page shows it
/// before its "Continue", so a link someone else asked for (for their own account) is not
/// followed into their account unseen. Whoever holds the link can sign in with it, so the
/// address tells them nothing more; but with two-factor on the link alone opens nothing (and no
/// one can be signed in to such an account unseen), so the address is shown masked.
///
/// # Errors
/// As [`sign_in`]'s, before it is used.
pub async fn shown(ctx: &Context, token: &str) -> Result<String> {
    let (_, user) = live(ctx, token).await?;
    Ok(if user.two_factor_enabled {
        masked(&user.email)
    } else {
        user.email
    })
}

/// `asha@example.com` → `a•••@example.com`.
fn masked(email: &str) -> String {
    let (local, domain) = email.split_once('@').unwrap_or((email, ""));
    let first: String = local.chars().take(1).collect();
    format!("{first}•••@{domain}")
}

/// The unused, unexpired link of `token` and its account, which may sign in.
async fn live(ctx: &Context, token: &str) -> Result<(sign_in_links::Model, entity::users::Model)> {
    if token.is_empty() || token.len() > 256 {
        return Err(Error::SignInLinkInvalid);
    }
    let link = sign_in_links::Entity::find()
        .filter(sign_in_links::Column::TokenHash.eq(tokens::sha256_hex(token)))
        .one(&ctx.db)
        .await?
        .ok_or(Error::SignInLinkInvalid)?;
    if link.used_at.is_some() {
        return Err(Error::SignInLinkInvalid);
    }
    if link.expires_at <= Utc::now() {
        return Err(Error::SignInLinkExpired);
    }
    let user = entity::users::Entity::find_by_id(link.user_id)
        .one(&ctx.db)
        .await?
        .ok_or(Error::SignInLinkInvalid)?;
    super::ensure_can_sign_in(&user)?;
    Ok((link, user))
}

/// Signs in with a link's token, once; the email counts as verified from then on. With
/// two-factor on, the answer is the challenge for the code.
///
/// # Errors
/// 400 'Sign-in link is invalid' (unknown or used); 410 'Sign-in link has expired'; 403 for a
/// suspended account.
#[tracing::instrument(skip_all)]
pub async fn sign_in(ctx: &Context, token: &str, client: &ClientInfo) -> Result<SignInStep> {
    let (link, user) = live(ctx, token).await?;
    let now = Utc::now();
    let txn = crate::db::begin_write(&ctx.db).await?;
    let used = sign_in_links::Entity::update_many()
        .col_expr(sign_in_links::Column::UsedAt, Expr::value(Some(now)))
        .filter(sign_in_links::Column::Id.eq(link.id))
        .filter(sign_in_links::Column::UsedAt.is_null())
        .exec(&txn)
        .await?;
    if used.rows_affected == 0 {
        txn.rollback().await?;
        return Err(Error::SignInLinkInvalid);
    }
    // As it stands now: suspended since the link was looked up, it opens nothing (and the
    // link stays unused with the rollback).
    let user = super::locked(&txn, user.id)
        .await?
        .ok_or(Error::SignInLinkInvalid)?;
    if let Err(suspended) = super::ensure_can_sign_in(&user) {
        txn.rollback().await?;
        return Err(suspended);
    }
    // The link proved the mailbox: a pending account is verified by it. Whoever registered
    // the address first may not be the one who reads it (pre-hijacking), so the password,
    // sessions, codes, links and identities set up before the proof are dropped, as a
    // provider's join does.
    let user = if user.email_verified {
        user
    } else {
        let status = super::verified_status(user.status);
        let mut row: entity::users::ActiveModel = user.into();
        row.email_verified = Set(true);
        row.status = Set(status);
        row.password_hash = Set(None);
        row.updated_at = Set(now);
        let user = row.update(&txn).await?;
        super::take_back_unverified(&txn, user.id, "a sign-in link", client).await?;
        Event::new(Kind::EmailVerified, Some(user.id), client)
            .detail("sign-in link")
            .record(&txn)
            .await?;
        user
    };
    txn.commit().await?;
    two_factor::sign_in_or_challenge(ctx, user, "sign_in_link", client).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_masked_address_keeps_its_first_letter_and_its_domain() {
        assert_eq!(super::masked("asha@example.com"), "a•••@example.com");
        assert_eq!(super::masked("é@x.example"), "é•••@x.example");
    }

    #[test]
    fn only_a_page_of_this_site_is_a_return_path() {
        for good in ["/", "/security", "/security?tab=sessions#passkeys", "/a%20b"] {
            assert!(super::is_return_path(good), "{good}");
        }
        for bad in [
            "",
            "security",
            "//evil.example",
            "/\\evil.example",
            "https://evil.example/",
            "/a b",
            "/a\tb",
            "/é",
        ] {
            assert!(!super::is_return_path(bad), "{bad}");
        }
        assert!(
            !super::is_return_path(&format!("/{}", "a".repeat(512))),
            "over 512"
        );
    }
}
