//! Typed text as a mail shows it: a person's or an organization's name is anyone's to type,
//! so one that could pass for a link or an address is not shown, and what cannot be seen is
//! dropped.

use crate::accounts::fields::{is_hidden_or_control, is_unseen};

/// A person's name as a mail may show it. Names are typed by anyone, so one that could pass
/// for a link or an address ("Claim your prize at evil.example") is replaced by "there", and
/// control and direction-override characters are dropped; HTML escaping comes on top.
pub fn greeting_name(name: &str) -> String {
    shown(name, 60, "there")
}

/// Typed `text` as one line of at most `max` characters, or `instead` when nothing is left or
/// it could pass for a link or an address.
fn shown(text: &str, max: usize, instead: &str) -> String {
    let cleaned = one_line(text);
    if cleaned.is_empty() || looks_like_a_link(&cleaned) {
        instead.to_owned()
    } else {
        cleaned.chars().take(max).collect()
    }
}

/// Whether typed text could pass for a link or an address in a mail: a scheme, "www", an `@`,
/// or a dot (or one of the characters that look like one) right before a letter or digit,
/// judged with what a reader does not see left out ("evil.\u{fe0f}com" reads "evil.com").
fn looks_like_a_link(text: &str) -> bool {
    let seen: String = text.chars().filter(|c| !is_unseen(*c)).collect();
    let text = seen.as_str();
    let lower = text.to_lowercase();
    let dotted: String = text
        .chars()
        .map(|c| {
            // Ideographic, full-width and half-width stops, the one-dot leader, the small and
            // Arabic full stops, Syriac's supralinear and sublinear stops, the stenographic stop.
            if matches!(
                c,
                '\u{3002}'
                    | '\u{ff0e}'
                    | '\u{ff61}'
                    | '\u{2024}'
                    | '\u{fe52}'
                    | '\u{06d4}'
                    | '\u{0701}'
                    | '\u{0702}'
                    | '\u{2e3c}'
            ) {
                '.'
            } else {
                c
            }
        })
        .collect();
    lower.contains("://")
        || lower.contains("www")
        || text.contains(['@', '\u{ff20}'])
        || dotted
            .split('.')
            .skip(1)
            .any(|after| after.chars().next().is_some_and(char::is_alphanumeric))
}

/// An organization's name as a mail shows it: typed by its owner, so cut short, with control
/// and direction-override characters dropped, and "an organization" instead of one that could
/// pass for a link or an address (HTML escaping comes on top).
pub(super) fn organization_name(name: &str) -> String {
    shown(name, 100, "an organization")
}

/// Typed text as one plain line: control, direction-override and invisible characters (a
/// zero-width space hides a dot's next letter) dropped, runs of whitespace made one space.
fn one_line(text: &str) -> String {
    text.chars()
        // Controls stay for the next step, which makes them spaces; the hidden characters go,
        // and so do the joiners and direction marks, which a mail's plain line does not need.
        .filter(|c| c.is_control() || !(is_hidden_or_control(*c) || matches!(c, '\u{200c}'..='\u{200f}')))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::password_reset;

    #[test]
    fn names_that_pass_for_links_or_carry_control_characters_are_not_shown() {
        for name in [
            "Win a prize at evil.example",
            "http://evil.example",
            "mail me: x@evil.example",
            "www evil com",
            // Behind an invisible character, or a dot or an at sign of another width.
            "Prize at evil.\u{200b}com",
            "evil\u{3002}com",
            "evil\u{ff0e}com",
            "pay\u{ff20}evil",
            // Behind what a reader does not see but names may carry (a variation selector, an
            // Arabic letter mark, a grapheme joiner), or a dot of another shape.
            "Support at evil.\u{34f}com",
            "Support at evil.\u{fe0f}com",
            "Support at evil.\u{61c}com",
            "Support at evil.\u{200d}com",
            "evil\u{2024}com",
            "evil\u{fe52}com",
        ] {
            assert_eq!(greeting_name(name), "there", "{name}");
        }
        // Initials stay, without the invisible character.
        assert_eq!(greeting_name("R.\u{200b} K. Narayan"), "R. K. Narayan");
        assert_eq!(greeting_name("Ann\r\nBcc: x\u{202e}"), "Ann Bcc: x");
        assert_eq!(greeting_name("Dr. Asha Verma"), "Dr. Asha Verma");
        let mail = password_reset("Talent Suite", "a@b.io", "Visit evil.example", "http://l", 30);
        assert!(mail.text.contains("Hello there,") && !mail.text.contains("evil"));
    }
}
