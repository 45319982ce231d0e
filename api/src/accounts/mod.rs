//! The account system: registration, email codes, sign-in, sessions, password reset,
//! profile and deletion. Plain async functions over the application state.

pub mod cookie;
pub mod deletion;
pub mod email_code;
pub mod fields;
pub mod google;
pub mod login;
pub mod password_reset;
pub mod passwords;
pub mod profile;
pub mod register;
pub mod sessions;
pub mod tokens;

use entity::users;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::error::Result;
use fields::Email;

/// The account behind an email, if any.
///
/// # Errors
/// On a database failure.
pub async fn find_by_email(db: &impl ConnectionTrait, email: &Email) -> Result<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::Email.eq(email.as_str()))
        .one(db)
        .await?)
}
