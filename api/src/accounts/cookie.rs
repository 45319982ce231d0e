//! The session cookie: HttpOnly, SameSite=Lax, Secure outside local, optionally shared by
//! the four platform sites through `COOKIE_DOMAIN`.

use crate::config::Config;

pub const NAME: &str = "ts_session";

/// `Set-Cookie` value carrying `token` for as long as the session lasts.
pub fn set(config: &Config, token: &str) -> String {
    build(config, token, config.session_lifetime.num_seconds())
}

/// The two `Set-Cookie` values of a sign-in: the session, and the device cookie that lets this
/// browser through the sign-in throttle's delay next time (see [`super::device`]).
pub fn for_sign_in(
    ctx: &crate::context::Context,
    client: &crate::client::ClientInfo,
    signed_in: &super::sessions::SignedIn,
) -> [String; 2] {
    [
        set(&ctx.config, &signed_in.token),
        super::device::remember(
            &ctx.keys,
            &ctx.config,
            client.device.as_deref(),
            &signed_in.user,
            None,
        ),
    ]
}

/// The `Set-Cookie` value that keeps this browser's device cookie good for the account once
/// its password was changed or reset here: a new password leaves the old entries unknown (see
/// [`super::device`]), and this browser proved the old password or the mailbox.
pub fn for_new_password(
    ctx: &crate::context::Context,
    client: &crate::client::ClientInfo,
    set: &super::PasswordSet,
) -> String {
    super::device::remember(
        &ctx.keys,
        &ctx.config,
        client.device.as_deref(),
        &set.after,
        Some(&set.before),
    )
}

/// `Set-Cookie` value that removes the cookie.
pub fn clear(config: &Config) -> String {
    build(config, "", 0)
}

fn build(config: &Config, value: &str, max_age: i64) -> String {
    let mut cookie = format!("{NAME}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax");
    if !config.env.is_local() {
        cookie.push_str("; Secure");
    }
    if let Some(domain) = &config.cookie_domain {
        cookie.push_str("; Domain=");
        cookie.push_str(domain);
    }
    cookie
}
