//! Typed account fields. Each constructor enforces SPEC.md section 5 and returns its exact text.

use std::sync::LazyLock;

use regex::Regex;

mod password;
pub use password::{COMMON_PASSWORD, MAX_PASSWORD, Password};

pub const MAX_NAME: usize = 100;
pub const MAX_BIO: usize = 1000;
pub const MAX_STRING: usize = 255;

/// A plain address: RFC 5322 "atext" and dots before the @, DNS labels after it. No quotes,
/// comments, display names or brackets, so nothing a mail header could misread.
static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$",
    )
    .expect("valid regex")
});
static COUNTRY_CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\+[0-9]{1,3}$").expect("valid regex"));
static PHONE_DIGITS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[0-9]{6,14}$").expect("valid regex"));

fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// A well-formed, plain email address, trimmed and lowercased: the identity of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// # Errors
    /// 'Email is required' or 'Invalid email format'.
    pub fn parse(value: Option<&str>) -> Result<Self, String> {
        let value = present(value).ok_or("Email is required")?;
        if value.len() > MAX_STRING || !EMAIL.is_match(value) || !within_mail_limits(value) {
            return Err("Invalid email format".to_owned());
        }
        Ok(Self(value.to_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Email {
    /// The inbox the address reaches, as the limits on mail to it count: see [`mailbox`].
    pub fn mailbox(&self) -> String {
        mailbox(&self.0)
    }
}

/// The inbox an address reaches, as the limits on mail to it count: a `+tag` after the local
/// part (`victim+1@example.com`, `victim+2@…`) is the same inbox at most providers, and so
/// are Gmail's dotted forms (`v.i.c.tim@gmail.com`) and its other domain: thirty aliases are
/// one address to a limit, so they cannot fill one inbox in the product's name. The mail
/// itself goes to the address as typed.
pub fn mailbox(email: &str) -> String {
    let email = email.to_lowercase();
    match email.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(base, _)| base);
            if matches!(domain, "gmail.com" | "googlemail.com") {
                format!("{}@gmail.com", local.replace('.', ""))
            } else {
                format!("{local}@{domain}")
            }
        }
        None => email,
    }
}

/// What mail can carry (RFC 5321 section 4.5.3.1): a name of at most 64 characters, domain
/// labels of at most 63, and a top-level domain that is a name, not a number (`x@1.2.3.4`
/// names no domain).
fn within_mail_limits(address: &str) -> bool {
    let Some((name, domain)) = address.rsplit_once('@') else {
        return false;
    };
    name.len() <= 64
        && domain.split('.').all(|label| label.len() <= 63)
        && domain
            .rsplit('.')
            .next()
            .is_some_and(|top| top.bytes().any(|b| b.is_ascii_alphabetic()))
}

/// The self-selectable roles, and the admin role that only the CLI grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Career,
    Campus,
    Hire,
    Admin,
}

impl Role {
    /// A role a person may pick for themself at registration.
    ///
    /// # Errors
    /// When the value is missing or not career, campus or hire.
    pub fn parse_selectable(value: Option<&str>) -> Result<Self, String> {
        match present(value).map(str::to_lowercase).as_deref() {
            Some("career") => Ok(Self::Career),
            Some("campus") => Ok(Self::Campus),
            Some("hire") => Ok(Self::Hire),
            None => Err("Role is required".to_owned()),
            Some(_) => Err("Role must be career, campus or hire".to_owned()),
        }
    }

    pub fn as_str(self) -> &'static str {
        entity::users::Role::from(self).as_str()
    }

    /// The label of the name field for this role, as the register screen shows it.
    pub fn name_label(self) -> &'static str {
        match self {
            Self::Campus => "Institute Name",
            Self::Hire => "Organization Name",
            Self::Career | Self::Admin => "Full Name",
        }
    }
}

impl From<Role> for entity::users::Role {
    fn from(role: Role) -> Self {
        match role {
            Role::Career => Self::Career,
            Role::Campus => Self::Campus,
            Role::Hire => Self::Hire,
            Role::Admin => Self::Admin,
        }
    }
}

/// Whether `c` may not stand in a name: a control character, or one that is not seen but
/// changes what is (a direction override shows "Acme\u{202e}exe.moc" as "Acmecom.exe", a
/// zero-width space splits a word unseen). The joiners and direction marks that scripts and
/// emoji need to be written right stay allowed.
pub fn is_hidden_or_control(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00ad}'
            // The combining grapheme joiner: "evil.\u{34f}com" reads "evil.com".
            | '\u{034f}'
            // Hangul and Khmer fillers and Mongolian variation selectors: blank, seen as nothing.
            | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
            | '\u{17b4}' | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2065}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
            // Interlinear annotations and the reserved specials.
            | '\u{fff0}'..='\u{fffb}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            // Tag characters (a flag's subdivision letters, unseen in a name).
            | '\u{e0000}'..='\u{e007f}')
}

/// Whether `c` is one a reader does not see, allowed or not (Unicode's default-ignorable code
/// points: the joiners, direction marks and variation selectors that scripts and emoji need,
/// besides what [`is_hidden_or_control`] refuses). Text is judged with them left out: "evil.com"
/// with a variation selector after its dot still reads as an address.
pub fn is_unseen(c: char) -> bool {
    is_hidden_or_control(c)
        || matches!(c,
            '\u{061c}'
            | '\u{200c}'..='\u{200f}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{e0100}'..='\u{e0fff}')
}

/// Whether typed prose (a post, a reason) holds a control character besides line breaks and
/// tabs: a NUL that SQLite would keep and PostgreSQL refuse, a byte that breaks a CSV.
pub fn has_stray_control(value: &str) -> bool {
    value
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

/// A person's or organisation's display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    /// # Errors
    /// '{label} is required', or too long.
    pub fn parse(value: Option<&str>, label: &str) -> Result<Self, String> {
        let value = present(value).ok_or_else(|| format!("{label} is required"))?;
        if value.chars().count() > MAX_NAME {
            return Err(format!("{label} must be at most {MAX_NAME} characters"));
        }
        if value.chars().any(is_hidden_or_control) {
            return Err(format!("{label} cannot contain control characters"));
        }
        Ok(Self(value.to_owned()))
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// A name someone else typed (a sign-in provider's profile), read as [`Name::parse`] would take
/// it: control and hidden characters left out, a line break or tab read as a space, spaces run
/// together, at most [`MAX_NAME`] characters. It is cleaned rather than refused, since the
/// person did not type it into our form and can change it on their profile.
pub fn cleaned_name(given: &str) -> String {
    let words: Vec<String> = given
        .split(char::is_whitespace)
        .map(|word| {
            word.chars()
                .filter(|c| !is_hidden_or_control(*c))
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect();
    words
        .join(" ")
        .chars()
        .take(MAX_NAME)
        .collect::<String>()
        .trim_end()
        .to_owned()
}

/// The name an account made through a sign-in provider starts with: the provider's, cleaned
/// ([`cleaned_name`]), or the email's local part when nothing is left of it.
pub fn name_from_provider(given: Option<&str>, email: &Email) -> String {
    match cleaned_name(given.unwrap_or_default()) {
        name if name.is_empty() => email.as_str().split('@').next().unwrap_or("User").to_owned(),
        name => name,
    }
}

/// A country calling code such as `+91`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountryCode(String);

impl CountryCode {
    /// # Errors
    /// 'Country code is required' or 'Invalid code (e.g., +91)'.
    pub fn parse(value: Option<&str>) -> Result<Self, String> {
        let value = present(value).ok_or("Country code is required")?;
        if !COUNTRY_CODE.is_match(value) {
            return Err("Invalid code (e.g., +91)".to_owned());
        }
        Ok(Self(value.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A phone number: the country code joined with 6 to 14 digits, e.g. `+919876543210`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    /// Accepts the digits alone or already joined with `code` (the site sends them joined).
    ///
    /// # Errors
    /// 'Phone number is required', 'Enter 6-14 digits', or, for a number joined with another
    /// country's code, that it must start with this one.
    pub fn parse(value: Option<&str>, code: Option<&CountryCode>) -> Result<Self, String> {
        let value = present(value).ok_or("Phone number is required")?;
        let digits = match (value.strip_prefix('+'), code) {
            (None, _) => value,
            (Some(_), Some(code)) => match value.strip_prefix(code.as_str()) {
                Some(digits) => digits,
                None => {
                    return Err(format!(
                        "Phone number must start with the country code {}",
                        code.as_str()
                    ));
                }
            },
            (Some(_), None) => value,
        };
        if !PHONE_DIGITS.is_match(digits) {
            return Err("Enter 6-14 digits".to_owned());
        }
        let joined = code.map_or_else(|| digits.to_owned(), |c| format!("{}{digits}", c.as_str()));
        Ok(Self(joined))
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

/// An email code as typed: at least 4 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtpInput(String);

impl OtpInput {
    /// # Errors
    /// 'OTP is required' or 'OTP must be at least 4 digits'.
    pub fn parse(value: Option<&str>) -> Result<Self, String> {
        let value = present(value).ok_or("OTP is required")?;
        if value.chars().count() < 4 {
            return Err("OTP must be at least 4 digits".to_owned());
        }
        Ok(Self(value.chars().take(32).collect()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_and_its_aliases_are_one_mailbox() {
        assert_eq!(mailbox("victim+1@example.com"), "victim@example.com");
        assert_eq!(mailbox("victim+a+b@example.com"), "victim@example.com");
        assert_eq!(mailbox("Victim@Example.com"), "victim@example.com");
        assert_eq!(mailbox("v.i.c.tim+x@googlemail.com"), "victim@gmail.com");
        assert_eq!(mailbox("v.ictim@example.com"), "v.ictim@example.com");
        assert_ne!(mailbox("victim@example.com"), mailbox("victim@other.example"));
    }

    #[test]
    fn emails_are_required_well_formed_and_lowercased() {
        assert_eq!(Email::parse(None).unwrap_err(), "Email is required");
        assert_eq!(Email::parse(Some("  ")).unwrap_err(), "Email is required");
        assert_eq!(Email::parse(Some("a@b")).unwrap_err(), "Invalid email format");
        assert_eq!(
            Email::parse(Some("a b@c.io")).unwrap_err(),
            "Invalid email format"
        );
        assert_eq!(
            Email::parse(Some("\"Ann\" <ann@x.io>")).unwrap_err(),
            "Invalid email format"
        );
        for plain in ["a.b+tag@mail.example.co.uk", "o'neil@x.io"] {
            assert!(Email::parse(Some(plain)).is_ok(), "{plain}");
        }
        for bad in ["a..b@x.io", "<a>@x.io", "a@x.io,b@y.io", "a@-x.io", "a@x_y.io"] {
            assert!(Email::parse(Some(bad)).is_err(), "{bad}");
        }
        // Past what mail carries: a 65-character name, a 64-character label, a number domain.
        let (name, label) = ("a".repeat(65), "b".repeat(64));
        for bad in [
            format!("{name}@x.io"),
            format!("a@{label}.io"),
            "a@1.2.3.4".to_owned(),
            "a@x.123".to_owned(),
        ] {
            assert_eq!(
                Email::parse(Some(&bad)).unwrap_err(),
                "Invalid email format",
                "{bad}"
            );
        }
        let longest = format!("{}@{}.io", "a".repeat(64), "b".repeat(63));
        assert!(Email::parse(Some(&longest)).is_ok());
        assert_eq!(
            Email::parse(Some(" Ann@Example.COM ")).unwrap().as_str(),
            "ann@example.com"
        );
    }

    #[test]
    fn the_name_error_uses_the_label_of_the_role() {
        for (role, text) in [
            (Role::Career, "Full Name is required"),
            (Role::Campus, "Institute Name is required"),
            (Role::Hire, "Organization Name is required"),
        ] {
            assert_eq!(Name::parse(Some(""), role.name_label()).unwrap_err(), text);
        }
        assert!(Name::parse(Some(&"x".repeat(101)), "Full Name").is_err());
    }

    #[test]
    fn country_codes_are_a_plus_and_one_to_three_digits() {
        assert_eq!(CountryCode::parse(None).unwrap_err(), "Country code is required");
        for bad in ["91", "+", "+1234", "+9a"] {
            assert_eq!(
                CountryCode::parse(Some(bad)).unwrap_err(),
                "Invalid code (e.g., +91)"
            );
        }
        assert!(CountryCode::parse(Some("+91")).is_ok());
    }

    #[test]
    fn phones_are_six_to_fourteen_digits_joined_with_the_code() {
        let code = CountryCode::parse(Some("+91")).unwrap();
        assert_eq!(
            Phone::parse(None, Some(&code)).unwrap_err(),
            "Phone number is required"
        );
        assert_eq!(
            Phone::parse(Some("12345"), Some(&code)).unwrap_err(),
            "Enter 6-14 digits"
        );
        assert_eq!(
            Phone::parse(Some("+449876543210"), Some(&code)).unwrap_err(),
            "Phone number must start with the country code +91"
        );
        assert_eq!(
            Phone::parse(Some("123456789012345"), Some(&code)).unwrap_err(),
            "Enter 6-14 digits"
        );
        assert_eq!(
            Phone::parse(Some("98765-43210"), Some(&code)).unwrap_err(),
            "Enter 6-14 digits"
        );
        assert_eq!(
            Phone::parse(Some("9876543210"), Some(&code))
                .unwrap()
                .into_inner(),
            "+919876543210"
        );
        assert_eq!(
            Phone::parse(Some("+919876543210"), Some(&code))
                .unwrap()
                .into_inner(),
            "+919876543210"
        );
    }

    #[test]
    fn codes_need_four_characters() {
        assert_eq!(OtpInput::parse(Some("")).unwrap_err(), "OTP is required");
        assert_eq!(
            OtpInput::parse(Some("123")).unwrap_err(),
            "OTP must be at least 4 digits"
        );
        assert!(OtpInput::parse(Some("1234")).is_ok());
    }

    #[test]
    fn only_three_roles_can_be_picked() {
        assert_eq!(Role::parse_selectable(Some("HIRE")).unwrap(), Role::Hire);
        assert!(Role::parse_selectable(Some("admin")).is_err());
        assert!(Role::parse_selectable(None).is_err());
    }
}
