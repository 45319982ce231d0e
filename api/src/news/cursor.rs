//! Opaque feed cursors: the position of the last item seen, `(created_at, id)`.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{DateTime, Utc};
use entity::news;
use uuid::Uuid;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub created_at: DateTime<Utc>,
    pub id: Uuid,
}

impl Cursor {
    pub fn of(item: &news::Model) -> Self {
        Self {
            created_at: item.created_at,
            id: item.id,
        }
    }

    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{}|{}", self.created_at.timestamp_micros(), self.id))
    }

    /// `None` for anything this server did not make.
    pub fn decode(raw: &str) -> Option<Self> {
        let bytes = URL_SAFE_NO_PAD.decode(raw.trim()).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let (micros, id) = text.split_once('|')?;
        // Only times a row can have: from 1970 to the end of year 9999.
        let micros: i64 = micros.parse().ok()?;
        if !(0..=253_402_300_799_999_999).contains(&micros) {
            return None;
        }
        Some(Self {
            created_at: DateTime::from_timestamp_micros(micros)?,
            id: Uuid::parse_str(id).ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_round_trips_and_garbage_is_refused() {
        let cursor = Cursor {
            created_at: DateTime::from_timestamp_micros(1_700_000_000_123_456).unwrap(),
            id: Uuid::new_v4(),
        };
        assert_eq!(Cursor::decode(&cursor.encode()), Some(cursor));
        for bad in ["", "abc", "!!!", &URL_SAFE_NO_PAD.encode("12|not-a-uuid")] {
            assert_eq!(Cursor::decode(bad), None, "{bad}");
        }
    }
}
