//! Mail: templates, the transactional outbox and the worker that delivers it over SMTP.

pub mod worker;

use chrono::Utc;
use entity::mail_outbox;
use sea_orm::{ActiveModelTrait, ConnectionTrait, Set};
use uuid::Uuid;

use crate::error::Result;

/// A rendered mail, ready for the outbox.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

struct Template {
    subject: &'static str,
    text: &'static str,
    html: &'static str,
}

const VERIFY_EMAIL: Template = Template {
    subject: include_str!("templates/verify_email/subject.txt"),
    text: include_str!("templates/verify_email/body.txt"),
    html: include_str!("templates/verify_email/body.html"),
};

const RESET_PASSWORD: Template = Template {
    subject: include_str!("templates/reset_password/subject.txt"),
    text: include_str!("templates/reset_password/body.txt"),
    html: include_str!("templates/reset_password/body.html"),
};

impl Template {
    fn render(&self, to: &str, vars: &[(&str, &str)]) -> Mail {
        let fill = |template: &str, escape: bool| {
            vars.iter().fold(template.to_owned(), |out, (key, value)| {
                let value = if escape {
                    html_escape(value)
                } else {
                    (*value).to_owned()
                };
                out.replace(&format!("{{{{{key}}}}}"), &value)
            })
        };
        Mail {
            to: to.to_owned(),
            subject: fill(self.subject, false).trim().to_owned(),
            text: fill(self.text, false),
            html: fill(self.html, true),
        }
    }
}

fn html_escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

pub fn verification_code(app_name: &str, to: &str, name: &str, code: &str, minutes: i64) -> Mail {
    VERIFY_EMAIL.render(
        to,
        &[
            ("app_name", app_name),
            ("name", name),
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
            ("name", name),
            ("link", link),
            ("minutes", &minutes.to_string()),
        ],
    )
}

/// Writes `mail` to the outbox within the caller's transaction: it is sent if and only if
/// the change that caused it commits.
///
/// # Errors
/// On a database failure.
pub async fn enqueue(db: &impl ConnectionTrait, mail: Mail) -> Result<()> {
    let now = Utc::now();
    mail_outbox::ActiveModel {
        id: Set(Uuid::new_v4()),
        recipient: Set(mail.to),
        subject: Set(mail.subject),
        text_body: Set(mail.text),
        html_body: Set(mail.html),
        attempts: Set(0),
        next_attempt_at: Set(now),
        locked_until: Set(None),
        sent_at: Set(None),
        last_error: Set(None),
        created_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_mail_names_the_app_and_shows_the_code_in_both_parts() {
        let mail = verification_code("Talent Suite", "a@b.io", "Ann", "123456", 10);
        assert_eq!(mail.subject, "Your Talent Suite verification code: 123456");
        assert!(mail.text.contains("123456") && mail.html.contains("123456"));
        assert!(mail.text.contains("10 minutes"));
    }

    #[test]
    fn names_are_escaped_in_html_only() {
        let mail = verification_code("Talent Suite", "a@b.io", "<b>Ann</b>", "123456", 10);
        assert!(mail.html.contains("&lt;b&gt;Ann&lt;/b&gt;"));
        assert!(mail.text.contains("<b>Ann</b>"));
    }
}
