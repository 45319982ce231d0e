//! What every cursor-paged list reads from its caller: how many items (within bounds) and
//! where to start, checked together so both mistakes are reported at once.

use crate::error::{FieldErrors, Result};

/// A checked page request: `limit` items after `after`.
#[derive(Debug)]
pub struct PageRequest<C> {
    pub limit: usize,
    pub after: Option<C>,
}

/// Reads `limit` (`default` when absent, 1 to `max`) and the cursor `after` (`decode` gives
/// `None` for anything this server did not make; an empty one is no cursor).
///
/// # Errors
/// Field errors on `limit` and `cursor`.
pub fn page_request<C>(
    limit: Option<i32>,
    default: i32,
    max: i32,
    after: Option<&str>,
    decode: impl Fn(&str) -> Option<C>,
) -> Result<PageRequest<C>> {
    let mut errors = FieldErrors::new();
    let limit = limit.unwrap_or(default);
    if !(1..=max).contains(&limit) {
        errors.add("limit", format!("limit must be a whole number from 1 to {max}"));
    }
    let after = match after.filter(|c| !c.is_empty()) {
        Some(raw) => errors.check("cursor", decode(raw).ok_or_else(|| "Invalid cursor".to_owned())),
        None => None,
    };
    errors.into_result()?;
    Ok(PageRequest {
        limit: usize::try_from(limit).unwrap_or(1),
        after,
    })
}
