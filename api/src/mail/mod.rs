//! Mail: templates, the transactional outbox and the worker that delivers it over SMTP.

mod names;
mod outbox;
pub mod worker;

pub use names::greeting_name;
use names::organization_name;

pub use outbox::{enqueue, enqueue_all, enqueue_nothing, withdraw_secret, withdraw_secrets_about};

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// What the outbox keeps of a delivered or expired mail that carried a code or a link.
pub const CLEARED_SUBJECT: &str = "(cleared: it carried a code or a link)";

/// A rendered mail, ready for the outbox.
#[derive(Debug, Clone)]
pub struct Mail {
    /// A plain address: never a display name, which would be user-supplied text.
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The account the mail is about: its mail is deleted with it.
    pub user_id: Option<Uuid>,
    /// For mail carrying a code or a link: when it stops being useful. Its bodies are
    /// cleared once delivered or past this, and it is not sent after it.
    pub secret_until: Option<DateTime<Utc>>,
}

impl Mail {
    #[must_use]
    pub fn about(mut self, user_id: Uuid) -> Self {
        self.user_id = Some(user_id);
        self
    }

    #[must_use]
    pub fn secret_until(mut self, until: DateTime<Utc>) -> Self {
        self.secret_until = Some(until);
        self
    }
}

struct Template {
    subject: &'static str,
    text: &'static str,
    html: &'static str,
}

macro_rules! template {
    ($name:literal) => {
        Template {
            subject: include_str!(concat!("templates/", $name, "/subject.txt")),
            text: include_str!(concat!("templates/", $name, "/body.txt")),
            html: include_str!(concat!("templates/", $name, "/body.html")),
        }
    };
}

const VERIFY_EMAIL: Template = template!("verify_email");
const RESET_PASSWORD: Template = template!("reset_password");
const PASSWORD_CHANGED: Template = template!("password_changed");
const IDENTITY_LINKED: Template = template!("identity_linked");
const NO_ACCOUNT: Template = template!("no_account");
const TWO_FACTOR_CHANGED: Template = template!("two_factor_changed");
const PASSWORD_KNOWN: Template = template!("password_known");
const INVITATION: Template = template!("invitation");
const SIGN_IN_LINK: Template = template!("sign_in_link");
const SIGN_IN_ADDED: Template = template!("sign_in_added");

impl Template {
    fn render(&self, to: &str, vars: &[(&str, &str)]) -> Mail {
        let fill = |template: &str, escape: bool| fill(template, vars, escape);
        Mail {
            to: to.to_owned(),
            subject: fill(self.subject, false).trim().to_owned(),
            text: fill(self.text, false),
            html: fill(self.html, true),
            user_id: None,
            secret_until: None,
        }
    }
}

/// `template` with each `{{key}}` of `vars` filled in, in one pass over the template alone: a
/// value is never read again for placeholders, so a name typed as `evil.{{organization}}`
/// stays as typed instead of becoming `evil.com` beside an organization named `com` (which
/// the check on names that look like links never saw whole), and a name `{{link}}` is not
/// someone else's link. A `{{` that names no variable is kept as it is.
fn fill(template: &str, vars: &[(&str, &str)], escape: bool) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let value = after.find("}}").and_then(|end| {
            let key = &after[..end];
            vars.iter()
                .find(|(name, _)| *name == key)
                .map(|(_, value)| (*value, end))
        });
        match value {
            Some((value, end)) => {
                if escape {
                    out.push_str(&crate::html::escape(value));
                } else {
                    out.push_str(value);
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

pub fn verification_code(app_name: &str, to: &str, name: &str, code: &str, minutes: i64) -> Mail {
    VERIFY_EMAIL.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("code", code),
            ("minutes", &minutes.to_string()),
        ],
    )
}

pub fn password_reset(app_name: &str, to: &str, name: &str, link: &str, minutes: i64) -> Mail {
    RESET_PASSWORD.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("link", link),
            ("minutes", &minutes.to_string()),
        ],
    )
}

/// A sign-in link; `link` is the page with its one "Continue" button.
pub fn sign_in_link(app_name: &str, to: &str, name: &str, link: &str, minutes: i64) -> Mail {
    SIGN_IN_LINK.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("link", link),
            ("minutes", &minutes.to_string()),
        ],
    )
}

/// The notice after a password change or reset; `link` leads to forgot-password.
pub fn password_changed(app_name: &str, to: &str, name: &str, link: &str) -> Mail {
    PASSWORD_CHANGED.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("link", link),
        ],
    )
}

/// The notice that a sign-in provider was linked; `note` says what else changed.
pub fn identity_linked(app_name: &str, to: &str, name: &str, provider: &str, note: &str, link: &str) -> Mail {
    IDENTITY_LINKED.render(
        to,
        &[
            ("app_name", app_name),
            ("provider", provider),
            ("name", &greeting_name(name)),
            ("note", note),
            ("link", link),
        ],
    )
}

/// The notice that two-factor sign-in was turned on or off; `link` leads to /security.
pub fn two_factor_changed(app_name: &str, to: &str, name: &str, on: bool, link: &str) -> Mail {
    let (state, note) = if on {
        (
            "on",
            "Signing in now asks for a code from your authenticator app.",
        )
    } else {
        ("off", "Signing in no longer asks for a code.")
    };
    TWO_FACTOR_CHANGED.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("state", state),
            ("note", note),
            ("link", link),
        ],
    )
}

/// To the owner when wrong second-factor codes closed the second step: the password is known.
/// The warning that someone has the password: `link` is where to choose a new one without
/// signing in (two-factor sign-in is paused for the owner too), `security` the devices page
/// for after.
pub fn password_known(
    app_name: &str,
    to: &str,
    name: &str,
    attempts: i32,
    link: &str,
    security: &str,
) -> Mail {
    PASSWORD_KNOWN.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("attempts", &attempts.to_string()),
            ("link", link),
            ("security", security),
        ],
    )
}

/// A way into an account that a signed-in person added, and that a password reset leaves in
/// place: the owner hears of each, in case the session was not theirs.
#[derive(Debug, Clone, Copy)]
pub enum NewWayIn<'a> {
    Passkey,
    /// A sign-in provider's account, by the provider's label ("GitHub").
    Provider(&'a str),
}

/// The notice that a way to sign in was added; `site` is the main platform's URL, where the
/// notice's forgot-password and security links lead.
pub fn sign_in_added(app_name: &str, to: &str, name: &str, added: NewWayIn<'_>, site: &str) -> Mail {
    let (method, note) = match added {
        NewWayIn::Passkey => (
            "A passkey".to_owned(),
            "It signs in to your account on its own, with no password or second-factor code.".to_owned(),
        ),
        NewWayIn::Provider(provider) => (
            format!("{provider} sign-in"),
            format!("From now on the {provider} account that was connected can sign in to your account."),
        ),
    };
    SIGN_IN_ADDED.render(
        to,
        &[
            ("app_name", app_name),
            ("name", &greeting_name(name)),
            ("method", &method),
            ("note", &note),
            ("forgot", &format!("{site}/forgot-password")),
            ("security", &format!("{site}/security")),
        ],
    )
}

/// An invitation to join an organization; `link` is the single-use invitation page.
/// `role` reads after "as": "a member", "an admin", "an owner".
pub fn invitation(
    app_name: &str,
    to: &str,
    inviter: &str,
    organization: &str,
    role: &str,
    link: &str,
    days: i64,
) -> Mail {
    let inviter = match greeting_name(inviter).as_str() {
        "there" => "Someone".to_owned(),
        name => name.to_owned(),
    };
    INVITATION.render(
        to,
        &[
            ("app_name", app_name),
            ("inviter", &inviter),
            ("organization", &organization_name(organization)),
            ("link", link),
            ("days", &days.to_string()),
            ("role", role),
        ],
    )
}

/// What a mailed link was asked for: the note to an address with no account names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkAsked {
    PasswordReset,
    SignIn,
}

/// The answer to a link asked for an address with no account; `link` leads to register.
pub fn no_account(app_name: &str, to: &str, link: &str, asked: LinkAsked) -> Mail {
    let (request, asked) = match asked {
        LinkAsked::PasswordReset => (
            "Password reset",
            format!("to reset the {app_name} password of this email address"),
        ),
        LinkAsked::SignIn => (
            "Sign-in link",
            format!("for a link to sign in to {app_name} with this email address"),
        ),
    };
    NO_ACCOUNT.render(
        to,
        &[
            ("request", request),
            ("asked", &asked),
            ("app_name", app_name),
            ("link", link),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_to_an_address_with_no_account_names_what_was_asked_for() {
        let reset = no_account(
            "Talent Suite",
            "a@b.io",
            "http://main.test/register",
            LinkAsked::PasswordReset,
        );
        assert_eq!(reset.subject, "Password reset requested for Talent Suite");
        assert!(reset.text.contains("Someone asked to reset the Talent Suite password of this email address, but there is no Talent Suite account for it."), "{}", reset.text);
        let sign_in = no_account(
            "Talent Suite",
            "a@b.io",
            "http://main.test/register",
            LinkAsked::SignIn,
        );
        assert_eq!(sign_in.subject, "Sign-in link requested for Talent Suite");
        for part in [&sign_in.text, &sign_in.html] {
            assert!(part.contains("Someone asked for a link to sign in to Talent Suite with this email address, but there is no Talent Suite account for it."), "{part}");
            assert!(!part.to_lowercase().contains("reset"), "{part}");
            assert!(part.contains("http://main.test/register"), "{part}");
        }
        assert!(sign_in.html.contains("Sign-in link requested</h1>"));
    }

    #[test]
    fn a_code_mail_names_the_app_and_shows_the_code_in_both_parts() {
        let mail = verification_code("Talent Suite", "a@b.io", "Ann", "123456", 10);
        assert_eq!(mail.subject, "Your Talent Suite verification code: 123456");
        assert!(mail.text.contains("123456") && mail.html.contains("123456"));
        assert!(mail.text.contains("10 minutes"));
    }

    #[test]
    fn a_new_way_in_names_the_method_and_links_the_reset_and_the_security_page() {
        let mail = sign_in_added(
            "Talent Suite",
            "a@b.io",
            "<b>Ann</b>",
            NewWayIn::Provider("GitHub"),
            "http://main.test",
        );
        assert_eq!(
            mail.subject,
            "GitHub sign-in was added to your Talent Suite account"
        );
        assert!(mail.text.contains("Hello <b>Ann</b>,"), "{}", mail.text);
        assert!(
            mail.html.contains("Hello &lt;b&gt;Ann&lt;/b&gt;,"),
            "{}",
            mail.html
        );
        for part in [&mail.text, &mail.html] {
            assert!(part.contains("http://main.test/forgot-password"), "{part}");
            assert!(part.contains("http://main.test/security"), "{part}");
        }
        let passkey = sign_in_added(
            "Talent Suite",
            "a@b.io",
            "Ann",
            NewWayIn::Passkey,
            "http://main.test",
        );
        assert_eq!(
            passkey.subject,
            "A passkey was added to your Talent Suite account"
        );
        assert!(
            passkey.text.contains("no password or second-factor code"),
            "{}",
            passkey.text
        );
    }

    #[test]
    fn an_organization_name_that_passes_for_a_link_is_not_shown() {
        let mail = invitation(
            "Talent Suite",
            "a@b.io",
            "Ann",
            "Acme – claim your bonus at evil.example",
            "a member",
            "http://main.test/invitations/t",
            7,
        );
        assert_eq!(
            mail.subject,
            "You're invited to join an organization on Talent Suite"
        );
        assert!(
            !mail.text.contains("evil") && !mail.html.contains("evil"),
            "{}",
            mail.text
        );
    }

    #[test]
    fn an_invitation_escapes_the_organization_and_hides_a_link_posing_as_a_name() {
        let mail = invitation(
            "Talent Suite",
            "a@b.io",
            "Visit evil.example",
            "<script>Acme</script>\u{202e}",
            "an admin",
            "http://main.test/invitations/t",
            7,
        );
        assert_eq!(
            mail.subject,
            "You're invited to join <script>Acme</script> on Talent Suite"
        );
        assert!(
            mail.html
                .contains("Someone invited you to join &lt;script&gt;Acme&lt;/script&gt; on")
        );
        assert!(!mail.html.contains("<script>") && !mail.text.contains("evil"));
        assert!(mail.text.contains("as an admin") && mail.text.contains("http://main.test/invitations/t"));
    }

    #[test]
    fn names_are_escaped_in_html() {
        let mail = verification_code("Talent Suite", "a@b.io", "<b>Ann</b>", "123456", 10);
        assert!(mail.html.contains("Hello &lt;b&gt;Ann&lt;/b&gt;,"));
        assert!(!mail.html.contains("<b>Ann"));
    }
}
