//! Parsed GraphQL documents, remembered by their text. A client sends the same few documents
//! over and over (the site's `me`, the REST adapter's fixed operations), and parsing one costs
//! more than running it; the limits that can be judged from the text alone (aliases) are
//! checked once, when a document is first parsed (so no document past them is kept).

use std::sync::{LazyLock, Mutex, PoisonError};

use async_graphql::{Request, Response, ServerError, parser::types::ExecutableDocument};
use hashlink::LruCache;

use super::{AppSchema, limits};

/// Distinct documents kept; the least recently used goes first.
const CAPACITY: usize = 512;
/// Longer documents are parsed every time rather than kept.
const MAX_KEPT_LEN: usize = 8 * 1024;

static PARSED: LazyLock<Mutex<LruCache<Box<str>, ExecutableDocument>>> =
    LazyLock::new(|| Mutex::new(LruCache::new(CAPACITY)));

/// `query`, parsed and within the limits of [`limits`] that depend on the text alone.
///
/// # Errors
/// The parser's error, or too many aliases, as GraphQL errors.
pub fn parse(query: &str) -> Result<ExecutableDocument, ServerError> {
    let kept = query.len() <= MAX_KEPT_LEN;
    if kept && let Some(document) = PARSED.lock().unwrap_or_else(PoisonError::into_inner).get(query) {
        return Ok(document.clone());
    }
    let document = async_graphql::parser::parse_query(query).map_err(|error| limits::coded(error.into()))?;
    limits::check_size(&document)?;
    if kept {
        PARSED
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(query.into(), document.clone());
    }
    Ok(document)
}

/// `request` with its document parsed, ready to run; or the response refusing it.
///
/// # Errors
/// A response with the parser's or the limit's error, as the schema would have answered.
pub fn prepare(mut request: Request) -> Result<Request, Box<Response>> {
    match parse(&request.query) {
        Ok(document) => {
            request.set_parsed_query(document);
            Ok(request)
        }
        Err(error) => Err(Box::new(Response::from_errors(vec![error]))),
    }
}

/// Runs `request` on `schema` with its document from [`prepare`], or answers its refusal.
pub async fn execute(schema: &AppSchema, request: Request) -> Response {
    match prepare(request) {
        Ok(request) => schema.execute(request).await,
        Err(refused) => *refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_parses_the_same_from_the_cache() {
        let query = "{ me { id email } }";
        let first = parse(query).unwrap();
        let second = parse(query).unwrap();
        assert_eq!(format!("{first:?}"), format!("{second:?}"));
    }

    #[test]
    fn too_many_aliases_are_refused_every_time() {
        let fields: String = (0..30).map(|n| format!("a{n}: me {{ id }} ")).collect();
        let query = format!("{{ {fields} }}");
        for _ in 0..2 {
            let error = parse(&query).unwrap_err();
            assert!(error.message.contains("Too many aliases"), "{}", error.message);
        }
    }

    #[test]
    fn a_syntax_error_is_the_parsers() {
        assert!(parse("{ me { id }").is_err());
    }
}
