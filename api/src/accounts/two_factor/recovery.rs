//! Recovery codes: ten per enrolment, 50 bits each from an alphabet without look-alike
//! characters, stored as keyed hashes and used once.

use chrono::Utc;
use entity::recovery_codes;
use rand::{Rng, rngs::OsRng};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};
use uuid::Uuid;

use crate::{context::Context, error::Result};

/// Recovery codes avoid characters that are easy to misread (0/o, 1/l/i).
pub(super) const RECOVERY_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

pub(super) fn recovery_hash(ctx: &Context, user_id: Uuid, code: &str) -> String {
    ctx.keys
        .keyed_hash(&["recovery-code", &user_id.to_string(), code])
}

pub(super) fn new_recovery_code() -> String {
    let mut rng = OsRng;
    let mut half = || -> String {
        (0..5)
            .map(|_| char::from(RECOVERY_ALPHABET[rng.gen_range(0..RECOVERY_ALPHABET.len())]))
            .collect()
    };
    format!("{}-{}", half(), half())
}

pub(super) async fn replace_recovery_codes(
    ctx: &Context,
    db: &impl ConnectionTrait,
    user_id: Uuid,
    codes: &[String],
) -> Result<()> {
    recovery_codes::Entity::delete_many()
        .filter(recovery_codes::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    let now = Utc::now();
    recovery_codes::Entity::insert_many(codes.iter().map(|code| recovery_codes::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user_id),
        code_hash: Set(recovery_hash(ctx, user_id, code)),
        used_at: Set(None),
        created_at: Set(now),
    }))
    .exec(db)
    .await?;
    Ok(())
}

/// How many recovery codes of the account are still unused.
///
/// # Errors
/// On a database failure.
pub async fn unused_recovery_codes(db: &impl ConnectionTrait, user_id: Uuid) -> Result<u64> {
    Ok(recovery_codes::Entity::find()
        .filter(recovery_codes::Column::UserId.eq(user_id))
        .filter(recovery_codes::Column::UsedAt.is_null())
        .count(db)
        .await?)
}
