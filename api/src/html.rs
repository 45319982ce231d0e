//! Escaping for the few pieces of HTML the server writes itself (mails, the consent and error
//! pages, the dev mailbox, the site's filled-in settings).

/// `value` as HTML text or a double- or single-quoted attribute value.
pub fn escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_every_character_that_could_end_text_or_an_attribute() {
        assert_eq!(
            super::escape(r#"<a href="x" title='y'>Tom & Jerry</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;"
        );
    }
}
