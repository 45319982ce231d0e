//! The sign-in throttle: every attempt to prove a password or a code for an account.
//!
//! Three counters, all kept in the database and keyed by keyed hashes, guard it: failures for
//! one email from one address (the tight one, API.md's "429 within 10 failures"), failures
//! for one email from anywhere (a looser ceiling against many addresses), and failures from
//! one address across emails (against spraying). A device cookie that lets its browser past
//! the email's delay has a counter of its own, so a copied cookie buys a handful of guesses,
//! not one from every address there is. Each takes its attempt before the password
//! is hashed, so parallel guesses cannot pass a limit, and each grows its delay instead of
//! locking. Sign-in, the second step, a password change and a confirmation all count here.

use chrono::Duration;
use entity::users;

use super::{device, fields::Email};
use crate::{
    client::ClientInfo,
    context::Context,
    error::{Error, Result},
    rate_limit::{self, Backoff},
};

pub const THROTTLED: &str = "Too many failed sign-in attempts. Please try again later.";

/// One email from one address: five free failures, then 15 s, 30 s, … up to 15 minutes.
pub const PER_EMAIL_AND_ADDRESS: Backoff = Backoff {
    free: 5,
    first: Duration::seconds(15),
    max: Duration::minutes(15),
    forget_after: Duration::days(1),
};
/// One email from every address together: looser, and a browser that has signed in to this
/// account before (its device cookie) still gets its attempt through this one's delay from an
/// address that has not been failing for the email.
pub const PER_EMAIL: Backoff = Backoff {
    free: 20,
    first: Duration::seconds(30),
    max: Duration::hours(1),
    forget_after: Duration::days(1),
};
/// One address across every email: a campus puts thousands of people behind one address,
/// so only a run of failures far beyond one person's counts.
pub const PER_ADDRESS: Backoff = Backoff {
    free: 100,
    first: Duration::seconds(30),
    max: Duration::hours(1),
    forget_after: Duration::hours(1),
};

/// Failures through one device-cookie entry, from any address: past five in a day, the entry
/// no longer gets its browser past the email's delay (OWASP's lockout of the device cookie
/// itself). Its browser can still sign in, as any other browser can.
pub const PER_DEVICE: Backoff = Backoff {
    free: 5,
    first: Duration::hours(1),
    max: Duration::days(1),
    forget_after: Duration::days(1),
};

/// The throttle keys of one sign-in attempt.
pub(crate) struct Throttle {
    pair: String,
    email: String,
    address: String,
    /// The counter of the browser's device-cookie entry for this account, when it has signed
    /// in to it before.
    device: Option<String>,
    /// Whether this attempt took one on `device` (given back when it succeeds).
    device_taken: bool,
    /// This email's turn in this process, held from the first count until the attempt is
    /// settled (see [`turn`]).
    turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

/// How many turns the process keeps: attempts for emails that share one wait for each other.
const TURNS: usize = 256;

/// The turn of one email's attempts in this process. Each attempt is counted before its
/// password is checked, so that parallel guesses cannot pass a limit; attempts in flight at
/// once for one email were counted together, and right passwords sent together met the
/// delay their own counts had set (five of eight refused, where eight sent one after the
/// other all sign in). Taken in turn, each is settled before the next is counted: parallel
/// attempts get exactly what sequential ones would. Another instance's attempts are still
/// counted in the database alone. A request holds one throttle, so one turn, at a time.
async fn turn(key: &str) -> tokio::sync::OwnedMutexGuard<()> {
    use std::{
        hash::{DefaultHasher, Hash, Hasher},
        sync::{Arc, LazyLock},
    };
    static TURNS_OF: LazyLock<Vec<Arc<tokio::sync::Mutex<()>>>> =
        LazyLock::new(|| (0..TURNS).map(|_| Arc::default()).collect());
    // The key is already a keyed hash of the email: any fixed hash of it spreads them.
    let mut hasher = DefaultHasher::new();
    key.hash(&mut hasher);
    let index = usize::try_from(hasher.finish() % TURNS as u64).unwrap_or(0);
    Arc::clone(&TURNS_OF[index]).lock_owned().await
}

impl Throttle {
    /// `account` is the account behind `email`, when there is one.
    pub(crate) fn new(
        ctx: &Context,
        email: &Email,
        account: Option<&users::Model>,
        client: &ClientInfo,
    ) -> Self {
        let ip = client.ip_key();
        let hash = |parts: &[&str]| ctx.keys.keyed_hash(parts);
        Self {
            pair: format!("login-pair:{}", hash(&["login-pair", email.as_str(), &ip])),
            email: format!("login-email:{}", hash(&["login-email", email.as_str()])),
            address: format!("login-ip:{}", hash(&["login-ip", &ip])),
            device: account
                .and_then(|account| device::recognised(&ctx.keys, client.device.as_deref(), account))
                .map(|nonce| format!("login-device:{}", hash(&["login-device", nonce]))),
            device_taken: false,
            turn: None,
        }
    }

    /// The throttle of a step after the first that proves `account` (a second factor, a
    /// confirmation, a password change), keyed by its own stored email.
    ///
    /// # Errors
    /// An internal error if the stored email does not parse (it was parsed to be stored).
    pub(crate) fn of_account(ctx: &Context, account: &users::Model, client: &ClientInfo) -> Result<Self> {
        let email = Email::parse(Some(&account.email)).map_err(|m| Error::internal(anyhow::anyhow!(m)))?;
        Ok(Self::new(ctx, &email, Some(account), client))
    }

    /// Takes one attempt on every counter, or refuses with 429 and takes none.
    ///
    /// # Errors
    /// [`Error::RateLimited`] while a counter is blocked; a database failure.
    pub(crate) async fn take(&mut self, ctx: &Context) -> Result<()> {
        if self.turn.is_none() {
            self.turn = Some(turn(&self.email).await);
        }
        let db = &ctx.db;
        rate_limit::take(db, &self.address, PER_ADDRESS, false, THROTTLED).await?;
        let pair = match rate_limit::take(db, &self.pair, PER_EMAIL_AND_ADDRESS, false, THROTTLED).await {
            Ok(pair) => pair,
            Err(err) => {
                rate_limit::refund(db, &self.address).await?;
                return Err(err);
            }
        };
        // The owner's own browser, on an address with no failure for this email, gets through
        // the email's delay; a guesser spread over many addresses does not, nor one who copied
        // the browser's cookie past its own few failures.
        let clean_address = match &self.device {
            Some(device) if pair.failures == 1 => {
                match rate_limit::take(db, device, PER_DEVICE, false, THROTTLED).await {
                    Ok(_) => {
                        self.device_taken = true;
                        true
                    }
                    Err(Error::RateLimited { .. }) => false,
                    Err(err) => {
                        rate_limit::refund(db, &self.address).await?;
                        rate_limit::refund(db, &self.pair).await?;
                        return Err(err);
                    }
                }
            }
            _ => false,
        };
        if let Err(err) = rate_limit::take(db, &self.email, PER_EMAIL, clean_address, THROTTLED).await {
            rate_limit::refund(db, &self.address).await?;
            rate_limit::refund(db, &self.pair).await?;
            if clean_address && let Some(device) = &self.device {
                rate_limit::refund(db, device).await?;
            }
            return Err(err);
        }
        Ok(())
    }

    /// The attempt proved the password: it was not a failure.
    ///
    /// # Errors
    /// On a database failure.
    pub(crate) async fn succeeded(&self, ctx: &Context) -> Result<()> {
        rate_limit::give_back(&ctx.db, Some(&self.pair), &[&self.email, &self.address]).await?;
        // The password was proven through this device: the typos it counted are forgiven, so
        // an owner who signs in daily never runs into its lockout.
        match &self.device {
            Some(device) => rate_limit::give_back(&ctx.db, Some(device), &[]).await,
            None => Ok(()),
        }
    }

    /// The attempt never reached its password (the hashing queue was full, 503): it counts
    /// for nothing, as a refused one does.
    ///
    /// # Errors
    /// On a database failure.
    pub(crate) async fn untried(&self, ctx: &Context) -> Result<()> {
        self.first_factor_passed(ctx).await
    }

    /// The attempt proved a first factor but not yet the person (two-factor is on): it was
    /// not a failure, yet the failures before it stay, so a known password does not reset
    /// the throttle that guards the codes.
    ///
    /// # Errors
    /// On a database failure.
    pub(crate) async fn first_factor_passed(&self, ctx: &Context) -> Result<()> {
        let mut keys = vec![self.pair.as_str(), &self.email, &self.address];
        keys.extend(self.device.as_deref().filter(|_| self.device_taken));
        rate_limit::give_back(&ctx.db, None, &keys).await
    }
}
