//! What the unit tests that need a database share: a migrated SQLite file of its own, and an
//! account signed in.

use chrono::{Duration, Utc};
use entity::{sessions, users};
use sea_orm::{ActiveModelTrait, DatabaseConnection, Set};
use uuid::Uuid;

use crate::accounts::{
    fields::{Email, Role},
    new_account,
};

/// A migrated SQLite database in a folder of its own; it goes with the folder.
pub async fn database() -> (tempfile::TempDir, DatabaseConnection) {
    let dir = tempfile::tempdir().unwrap();
    let db = crate::db::connect(&format!("sqlite://{}/test.db?mode=rwc", dir.path().display()))
        .await
        .unwrap();
    crate::db::migrate(&db).await.unwrap();
    (dir, db)
}

/// A verified Career account.
pub async fn account(db: &DatabaseConnection, email: &str) -> users::Model {
    let email = Email::parse(Some(email)).unwrap();
    new_account("Asha Verma".to_owned(), &email, Role::Career, true)
        .insert(db)
        .await
        .unwrap()
}

/// A live session of `user`, a day long.
pub async fn session(db: &DatabaseConnection, user: &users::Model) -> sessions::Model {
    let now = Utc::now();
    sessions::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user.id),
        user_agent: Set(None),
        ip: Set(None),
        created_at: Set(now),
        expires_at: Set(now + Duration::days(1)),
        last_seen_at: Set(Some(now)),
        authenticated_at: Set(Some(now)),
    }
    .insert(db)
    .await
    .unwrap()
}
