//! The password field: SPEC.md section 5's registration and reset rules, API.md's bound, and
//! the most common passwords refused after them.

use super::MAX_STRING;

/// API.md's bound for a string; Argon2 has none, and a megabyte password would cost CPU.
pub const MAX_PASSWORD: usize = MAX_STRING;

/// A password as registration and sign-in accept it (at least 6 characters).
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

impl Password {
    /// The registration rule.
    ///
    /// # Errors
    /// 'Password is required' (nothing, or only spaces: no password a person means) or
    /// 'Minimum 6 characters'.
    pub fn parse_new(value: Option<&str>) -> Result<Self, String> {
        let value = value
            .filter(|v| !v.trim().is_empty())
            .ok_or("Password is required")?;
        let len = value.chars().count();
        if len < 6 {
            return Err("Minimum 6 characters".to_owned());
        }
        within_bound(value)?;
        refuse_common(value)?;
        Ok(Self(value.to_owned()))
    }

    /// The reset rule: 6+ characters from letters, digits and @$!%*?&, with a letter and a digit.
    ///
    /// # Errors
    /// 'Password is required', 'Must contain at least 6 chars, 1 letter & 1 number', or too long.
    pub fn parse_reset(value: Option<&str>) -> Result<Self, String> {
        let value = value.filter(|v| !v.is_empty()).ok_or("Password is required")?;
        within_bound(value)?;
        let allowed = value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@$!%*?&".contains(c));
        let has_letter = value.chars().any(|c| c.is_ascii_alphabetic());
        let has_digit = value.chars().any(|c| c.is_ascii_digit());
        if value.len() < 6 || !allowed || !has_letter || !has_digit {
            return Err("Must contain at least 6 chars, 1 letter & 1 number".to_owned());
        }
        refuse_common(value)?;
        Ok(Self(value.to_owned()))
    }

    /// At sign-in only presence is checked: the hash decides the rest.
    ///
    /// # Errors
    /// 'Password is required'.
    pub fn parse_existing(value: Option<&str>) -> Result<Self, String> {
        let value = value.filter(|v| !v.is_empty()).ok_or("Password is required")?;
        Ok(Self(value.chars().take(MAX_PASSWORD + 1).collect()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// 'Maximum 255 characters' past [`MAX_PASSWORD`], at registration and at reset alike.
fn within_bound(password: &str) -> Result<(), String> {
    if password.chars().count() > MAX_PASSWORD {
        return Err(format!("Maximum {MAX_PASSWORD} characters"));
    }
    Ok(())
}

pub const COMMON_PASSWORD: &str =
    "This password is one of the most common and easy to guess. Please choose another.";

/// After SPEC.md's rules pass: a password every attacker tries first is refused too.
fn refuse_common(value: &str) -> Result<(), String> {
    if crate::accounts::common_passwords::is_common(value) {
        return Err(COMMON_PASSWORD.to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOO_LONG: &str = "Maximum 255 characters";

    #[test]
    fn registration_passwords_need_six_characters() {
        assert_eq!(Password::parse_new(None).unwrap_err(), "Password is required");
        assert_eq!(
            Password::parse_new(Some("12345")).unwrap_err(),
            "Minimum 6 characters"
        );
        assert!(Password::parse_new(Some("k7#Lm2")).is_ok());
        // Six spaces are six characters, but no password anyone means.
        assert_eq!(
            Password::parse_new(Some("      ")).unwrap_err(),
            "Password is required"
        );
        assert_eq!(
            Password::parse_new(Some("\t \n   ")).unwrap_err(),
            "Password is required"
        );
        assert!(
            Password::parse_new(Some(" k7#Lm ")).is_ok(),
            "spaces around a password are part of it"
        );
    }

    #[test]
    fn common_passwords_are_refused_after_the_spec_rules_and_long_ones_kept_as_typed() {
        assert_eq!(Password::parse_new(Some("123456")).unwrap_err(), COMMON_PASSWORD);
        assert_eq!(
            Password::parse_reset(Some("Password1")).unwrap_err(),
            COMMON_PASSWORD
        );
        // SPEC.md's own texts come first.
        assert_eq!(
            Password::parse_new(Some("12345")).unwrap_err(),
            "Minimum 6 characters"
        );
        let long = format!(" {} ", "x".repeat(253));
        assert_eq!(Password::parse_new(Some(&long)).unwrap().expose(), long);
        assert_eq!(Password::parse_new(Some(&"x".repeat(256))).unwrap_err(), TOO_LONG);
    }

    #[test]
    fn reset_passwords_need_a_letter_a_digit_and_allowed_symbols() {
        let rule = "Must contain at least 6 chars, 1 letter & 1 number";
        for bad in ["abcdef", "123456", "ab1", "abc 123", "abc123#"] {
            assert_eq!(Password::parse_reset(Some(bad)).unwrap_err(), rule, "{bad}");
        }
        assert!(Password::parse_reset(Some("abc12@")).is_ok());
        // Past API.md's 255, the bound is named rather than the rule.
        let longest = format!("a1{}", "b".repeat(253));
        assert!(Password::parse_reset(Some(&longest)).is_ok());
        assert_eq!(
            Password::parse_reset(Some(&(longest + "c"))).unwrap_err(),
            TOO_LONG
        );
    }
}
