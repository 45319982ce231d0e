//! The one error type of the domain and the stable codes of API.md it maps to; `http::error`
//! gives each code its HTTP status.

use std::fmt;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Field errors keyed by the field's JSON name, in the order the fields were checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(Vec<(String, String)>);

impl FieldErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        let field = field.into();
        if !self.0.iter().any(|(f, _)| *f == field) {
            self.0.push((field, message.into()));
        }
    }

    /// Records the error of a parse, and hands back its value when it parsed.
    pub fn check<T>(&mut self, field: &str, parsed: Result<T, String>) -> Option<T> {
        match parsed {
            Ok(value) => Some(value),
            Err(message) => {
                self.add(field, message);
                None
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(f, m)| (f.as_str(), m.as_str()))
    }

    /// The same errors with `from`'s under the name `to`, in its message's first word too.
    #[must_use]
    pub fn renamed(mut self, from: &str, to: &str) -> Self {
        for (field, message) in &mut self.0 {
            if field == from {
                to.clone_into(field);
                if let Some(rest) = message.strip_prefix(from) {
                    *message = format!("{to}{rest}");
                }
            }
        }
        self
    }

    /// The first field's message: what a toast shows.
    pub fn first_message(&self) -> &str {
        self.0.first().map_or("Invalid input", |(_, m)| m.as_str())
    }

    /// `Ok(())` when nothing was recorded.
    ///
    /// # Errors
    /// [`Error::Validation`] with every recorded field.
    pub fn into_result(self) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::Validation(self))
        }
    }

    /// `checked`, or every field error at once: these and the ones `checked` failed with (a
    /// list's filters and its page request, say, reported together rather than in turns).
    ///
    /// # Errors
    /// These field errors joined with `checked`'s, or `checked`'s other error.
    pub fn together<T>(mut self, checked: Result<T>) -> Result<T> {
        match checked {
            Ok(value) if self.is_empty() => Ok(value),
            Ok(_) => Err(Error::Validation(self)),
            Err(Error::Validation(more)) => {
                for (field, message) in more.iter() {
                    self.add(field, message);
                }
                Err(Error::Validation(self))
            }
            Err(other) => Err(other),
        }
    }
}

/// The stable, machine-readable codes of API.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    BadUserInput,
    Unauthenticated,
    EmailNotVerified,
    Forbidden,
    /// A sensitive change needs a sign-in within the last ten minutes: the site asks "Confirm
    /// it's you" and calls `POST /auth/reauthenticate`.
    ReauthenticationRequired,
    NotFound,
    Conflict,
    TokenExpired,
    PayloadTooLarge,
    UnsupportedMediaType,
    RateLimited,
    Internal,
    Unavailable,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BadUserInput => "BAD_USER_INPUT",
            Self::Unauthenticated => "UNAUTHENTICATED",
            Self::EmailNotVerified => "EMAIL_NOT_VERIFIED",
            Self::Forbidden => "FORBIDDEN",
            Self::ReauthenticationRequired => "REAUTHENTICATION_REQUIRED",
            Self::NotFound => "NOT_FOUND",
            Self::Conflict => "CONFLICT",
            Self::TokenExpired => "TOKEN_EXPIRED",
            Self::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            Self::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            Self::RateLimited => "RATE_LIMITED",
            Self::Internal => "INTERNAL",
            Self::Unavailable => "UNAVAILABLE",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong, in the product's words.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}", .0.first_message())]
    Validation(FieldErrors),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthenticated(String),
    #[error("Please verify your email before signing in")]
    EmailNotVerified,
    #[error("{0}")]
    Forbidden(String),
    #[error("Please confirm it's you to make this change")]
    ReauthenticationRequired,
    #[error("{0}")]
    NotFound(String),
    /// A sign-in with an unknown email or a wrong password: the same answer for both.
    #[error("Invalid email or password")]
    InvalidCredentials,
    #[error("This account has been suspended")]
    AccountSuspended,
    #[error("An account with this email already exists")]
    EmailTaken,
    /// The emailed verification code is past its lifetime.
    #[error("OTP expired. Please request a new one.")]
    CodeExpired,
    /// A two-factor challenge unknown, used, or past its lifetime.
    #[error("This sign-in has expired. Please sign in again.")]
    ChallengeExpired,
    #[error("Reset link is invalid")]
    ResetLinkInvalid,
    #[error("Reset link has expired")]
    ResetLinkExpired,
    /// A sign-in link unknown or already used.
    #[error("Sign-in link is invalid")]
    SignInLinkInvalid,
    #[error("Sign-in link has expired")]
    SignInLinkExpired,
    /// A new passkey whose attestation, origin, challenge or flags did not check out.
    #[error("Passkey could not be verified")]
    PasskeyUnverified,
    /// A passkey sign-in that proves no account: unknown credential, bad signature, a replay.
    #[error("Passkey not recognised")]
    PasskeyNotRecognised,
    /// A passkey ceremony finished after its five minutes.
    #[error("Passkey request has expired. Please try again.")]
    PasskeyCeremonyExpired,
    /// Someone else's account, and the viewer is no admin.
    #[error("You can only delete your own account")]
    NotYourAccount,
    /// An admin's action; the message names it ("Only admins can manage news").
    #[error("{0}")]
    AdminsOnly(&'static str),
    /// A change that would leave an organization without an owner.
    #[error("An organization needs at least one owner")]
    LastOwner,
    /// Invitations past an organization's seat limit (members plus pending invitations).
    #[error("Seat limit reached")]
    SeatLimitReached,
    #[error("{0}")]
    Conflict(String),
    /// A write that referred to a row deleted while the request ran (an account deleted during
    /// its own sign-in, say). Every reference cascades or sets null on deletion, so only such a
    /// race can break one.
    #[error("This account or record was deleted while the request ran")]
    DeletedMeanwhile,
    #[error("{0}")]
    Expired(String),
    #[error("{message}")]
    RateLimited { message: String, retry_after_secs: u64 },
    #[error("The service is temporarily unavailable. Please try again shortly.")]
    Unavailable,
    /// Too much work is queued (password hashing); the caller should retry in a moment.
    #[error("The service is busy. Please try again in a moment.")]
    Busy,
    /// Everything unexpected. The cause goes to the log, never to the caller.
    #[error("Something went wrong")]
    Internal(#[source] anyhow::Error),
}

pub const SESSION_EXPIRED: &str = "Session expired or unauthorized";

impl Error {
    pub fn code(&self) -> Code {
        match self {
            Self::Validation(_)
            | Self::BadRequest(_)
            | Self::ResetLinkInvalid
            | Self::SignInLinkInvalid
            | Self::PasskeyUnverified => Code::BadUserInput,
            Self::Unauthenticated(_) | Self::InvalidCredentials | Self::PasskeyNotRecognised => {
                Code::Unauthenticated
            }
            Self::EmailNotVerified => Code::EmailNotVerified,
            Self::Forbidden(_) | Self::AccountSuspended | Self::NotYourAccount | Self::AdminsOnly(_) => {
                Code::Forbidden
            }
            Self::ReauthenticationRequired => Code::ReauthenticationRequired,
            Self::NotFound(_) => Code::NotFound,
            Self::Conflict(_)
            | Self::DeletedMeanwhile
            | Self::EmailTaken
            | Self::LastOwner
            | Self::SeatLimitReached => Code::Conflict,
            Self::Expired(_)
            | Self::CodeExpired
            | Self::ChallengeExpired
            | Self::ResetLinkExpired
            | Self::SignInLinkExpired
            | Self::PasskeyCeremonyExpired => Code::TokenExpired,
            Self::RateLimited { .. } => Code::RateLimited,
            Self::Unavailable | Self::Busy => Code::Unavailable,
            Self::Internal(_) => Code::Internal,
        }
    }

    /// Seconds the caller should wait before trying again, for a `Retry-After` header.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Self::RateLimited { retry_after_secs, .. } => Some(*retry_after_secs),
            Self::Busy => Some(1),
            _ => None,
        }
    }

    pub fn field(field: &str, message: impl Into<String>) -> Self {
        let mut errors = FieldErrors::new();
        errors.add(field, message);
        Self::Validation(errors)
    }

    pub fn session_expired() -> Self {
        Self::Unauthenticated(SESSION_EXPIRED.to_owned())
    }

    pub fn internal(err: impl Into<anyhow::Error>) -> Self {
        Self::Internal(err.into())
    }

    /// The error for a command line or start-up message: an internal one as its cause (not
    /// "Something went wrong"), any other as itself.
    pub fn into_anyhow(self) -> anyhow::Error {
        match self {
            Self::Internal(cause) => cause,
            other => anyhow::Error::new(other),
        }
    }
}

impl From<sea_orm::DbErr> for Error {
    fn from(err: sea_orm::DbErr) -> Self {
        let sqlite = sqlite_code(&err);
        if is_unreachable(&err) {
            tracing::error!(error = %err, "database unavailable");
            Self::Unavailable
        } else if let Some(code) = sqlite.filter(|code| SQLITE_CANNOT_STORE.contains(code)) {
            // The disk is full, or the file cannot be written: nothing this request wrote was
            // kept, and the same request goes through once the operator has made room.
            tracing::error!(error = %err, code, "the SQLite database cannot store anything");
            Self::Unavailable
        } else if sqlite.is_some_and(|code| SQLITE_BUSY_CODES.contains(&code)) {
            // Another process (a backup, an operator's `sqlite3`) held the file past the
            // busy wait: this request wrote nothing, and the same request again goes through.
            tracing::warn!(error = %err, "the SQLite database stayed locked past the busy wait");
            Self::Busy
        } else if is_bad_data(&err) {
            // A check before the database missed this value: say so in the logs, and answer
            // the caller as the bad input it is.
            tracing::warn!(error = %err, "the database refused a value as bad data");
            Self::BadRequest(UNSTORABLE.to_owned())
        } else if is_lock_conflict(&err) {
            // Two transactions each waited on the other's lock (or could not be ordered), and
            // PostgreSQL refused this one; it wrote nothing, and the same request again goes
            // through.
            tracing::warn!(error = %err, "a transaction refused for a lock conflict");
            Self::Busy
        } else if matches!(err, sea_orm::DbErr::RecordNotUpdated)
            || matches!(
                err.sql_err(),
                Some(sea_orm::SqlErr::ForeignKeyConstraintViolation(_))
            )
        {
            // An update found its row gone (the account deleted while a profile or password
            // change ran), or a write referred to one.
            tracing::warn!(error = %err, "a write referred to a row deleted meanwhile");
            Self::DeletedMeanwhile
        } else {
            Self::Internal(err.into())
        }
    }
}

/// The answer to a value the database cannot store that no field's own rule caught.
pub const UNSTORABLE: &str = "A value is out of range or holds a character that cannot be stored";

/// Whether PostgreSQL refused a value itself (SQLSTATE class 22, "data exception": a NUL
/// character in text, a date or number out of its range).
fn is_bad_data(err: &sea_orm::DbErr) -> bool {
    sql_state(err).is_some_and(|code| code.starts_with("22"))
}

/// SQLite's primary result codes (`SQLITE_IOERR`, `SQLITE_FULL`, `SQLITE_READONLY`) for a file
/// that cannot take a write.
const SQLITE_CANNOT_STORE: [i32; 3] = [10, 13, 8];

/// `SQLITE_BUSY` and `SQLITE_LOCKED`: another connection's lock, held past the busy wait.
const SQLITE_BUSY_CODES: [i32; 2] = [5, 6];

/// SQLite's primary result code (the low byte of its extended code) of a statement SQLite
/// refused; `None` for PostgreSQL, whose SQLSTATEs may read as numbers too.
fn sqlite_code(err: &sea_orm::DbErr) -> Option<i32> {
    use sea_orm::{
        DbErr, RuntimeErr,
        sqlx::{Error as Sqlx, error::DatabaseError},
    };
    match err {
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => match &**e {
            Sqlx::Database(db) => db
                .try_downcast_ref::<sea_orm::sqlx::sqlite::SqliteError>()
                .and_then(|sqlite| sqlite.code())
                .and_then(|code| code.parse::<i32>().ok())
                .map(|code| code & 0xff),
            _ => None,
        },
        _ => None,
    }
}

/// The SQLSTATE of a statement the database refused, when it gave one.
fn sql_state(err: &sea_orm::DbErr) -> Option<String> {
    use sea_orm::{DbErr, RuntimeErr, sqlx::Error as Sqlx};
    match err {
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => match &**e {
            Sqlx::Database(db) => db.code().map(|code| code.into_owned()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether PostgreSQL refused a transaction to end a deadlock (40P01) or because it could not
/// be serialized (40001).
fn is_lock_conflict(err: &sea_orm::DbErr) -> bool {
    matches!(sql_state(err).as_deref(), Some("40P01" | "40001"))
}

/// Whether the database could not be reached (down, restarting, the connection cut), as
/// opposed to refusing a statement: the first is a 503 the caller may retry, the second a bug.
fn is_unreachable(err: &sea_orm::DbErr) -> bool {
    use sea_orm::{DbErr, RuntimeErr, sqlx::Error as Sqlx};
    let sqlx = match err {
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => return true,
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => e,
        _ => return false,
    };
    match &**sqlx {
        Sqlx::Io(_) | Sqlx::PoolTimedOut | Sqlx::PoolClosed | Sqlx::WorkerCrashed | Sqlx::Tls(_) => true,
        // PostgreSQL shutting down or starting up (57P01-57P03) and connection failures (08…).
        Sqlx::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("57P") || code.starts_with("08")),
        _ => false,
    }
}

impl From<sea_orm::TransactionError<Error>> for Error {
    fn from(err: sea_orm::TransactionError<Error>) -> Self {
        match err {
            sea_orm::TransactionError::Connection(db) => db.into(),
            sea_orm::TransactionError::Transaction(inner) => inner,
        }
    }
}

/// Whether `err` is the violation of the unique constraint named `constraint`.
///
/// PostgreSQL names the constraint; SQLite names the `table.column`, so both are given.
pub fn is_unique_violation(err: &sea_orm::DbErr, constraint: &str, sqlite_column: &str) -> bool {
    match err.sql_err() {
        Some(sea_orm::SqlErr::UniqueConstraintViolation(msg)) => {
            msg.contains(constraint) || msg.contains(sqlite_column)
        }
        _ => false,
    }
}
