//! The most common passwords, refused at registration, reset and change: the first guesses
//! of every attacker. The list (passwords of six characters or more from the frequency list
//! of zxcvbn-ts's common language package, MIT licence, most common first) ships inside the
//! binary, so no lookup leaves the server.

use std::{collections::HashSet, sync::LazyLock};

const LIST: &str = include_str!("common_passwords.txt");

static COMMON: LazyLock<HashSet<&'static str>> = LazyLock::new(|| LIST.lines().collect());

/// Whether `password` is on the list, ignoring case (the list is lowercase).
pub fn is_common(password: &str) -> bool {
    COMMON.contains(password.to_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_long_and_catches_the_classics_in_any_case() {
        assert!(COMMON.len() >= 10_000, "{}", COMMON.len());
        for password in ["password", "Password1", "qwerty123", "iloveyou", "abc123456"] {
            assert!(is_common(password), "{password}");
        }
        assert!(!is_common("correct horse battery staple 7"));
    }
}
