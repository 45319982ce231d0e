//! The server binary's commands.

use std::{io::Read, path::PathBuf};

use anyhow::Context;
use clap::{Parser, Subcommand};

use crate::{
    accounts::{
        admin::{self, MadeAdmin},
        fields::{Email, Name, Password},
        find_by_email,
        passwords::PasswordHasher,
    },
    app::Application,
    audit::{Event, Kind},
    config::Config,
    db, graphql, telemetry,
};

#[derive(Parser, Debug)]
#[command(
    name = "api",
    about = "Talent Suite server: the API, the mail worker and the site"
)]
pub struct Cli {
    /// Read this env file whatever APP_ENV says (values already set still win). Without it,
    /// `.env` is read only for local development (see `load_config`).
    #[arg(long, global = true, value_name = "PATH")]
    pub env_file: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Migrate the database, then serve the API and the site (the default).
    Serve,
    /// Bring the database schema up to date and exit.
    Migrate,
    /// Print the GraphQL schema (SDL) to stdout, or write it to a file.
    ExportSchema {
        /// Write to this file instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Create an admin account, or make an existing account an admin (its password replaced by
    /// the one given, its name kept). The password is read from ADMIN_PASSWORD or, without it
    /// (or blank), from standard input: never from the command line.
    CreateAdmin {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
    },
    /// Register and manage the applications that sign people in through Talent Suite
    /// (OpenID Connect clients). Needs only the database settings.
    #[command(subcommand)]
    OauthClient(OauthClientCommand),
    /// Manage the OpenID Provider's signing keys (sealed with KEY_ENCRYPTION_KEY, so this needs
    /// the server's settings).
    #[command(subcommand)]
    SigningKey(SigningKeyCommand),
    /// Turn two-factor sign-in off for an owner who lost both the authenticator and the
    /// recovery codes, once their identity was checked another way (SECURITY.md). Every
    /// session ends, the owner is mailed and the act is audited with the reason.
    DisableTwoFactor {
        #[arg(long)]
        email: String,
        /// Why, for the audit log (the support ticket, say).
        #[arg(long)]
        reason: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum OauthClientCommand {
    /// Register a client; prints `client_id: …` and, once, `client_secret: …`.
    Create {
        #[arg(long)]
        name: String,
        /// An exact redirect URI; repeat for more.
        #[arg(long = "redirect-uri", required = true)]
        redirect_uris: Vec<String>,
        /// Where RP-initiated logout may return; repeat for more.
        #[arg(long = "post-logout-redirect-uri")]
        post_logout_redirect_uris: Vec<String>,
        /// Receives OpenID Back-Channel Logout tokens.
        #[arg(long)]
        backchannel_logout_uri: Option<String>,
        /// No secret: the client proves itself with PKCE alone (single-page and mobile apps).
        #[arg(long)]
        public: bool,
        /// How its ID tokens are signed: RS256 (every client library) or EdDSA.
        #[arg(long, default_value = "RS256")]
        id_token_alg: crate::oidc::clients::IdTokenAlg,
        /// One of the three platforms: no consent screen.
        #[arg(long)]
        first_party: bool,
    },
    /// List the registered clients.
    List,
    /// Give a confidential client a new secret (printed once; the old one stops working).
    RotateSecret {
        /// Ids made before they were hex could begin with `-`: read as the id, not an option.
        #[arg(allow_hyphen_values = true)]
        client_id: String,
    },
    /// Delete a client with its tokens and consents.
    Delete {
        #[arg(allow_hyphen_values = true)]
        client_id: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum SigningKeyCommand {
    /// Retire the current signing keys and make new ones; the old keys stay published until
    /// the tokens they signed expire.
    Rotate,
}

/// Runs the command; the process exits non-zero with the message on error.
///
/// # Errors
/// Whatever the command failed on, in words an operator can act on.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let env_file = cli.env_file;
    let read_config = || load_config(env_file.as_deref());
    match cli.command.unwrap_or(Command::Serve) {
        Command::ExportSchema { out } => export_schema(out),
        Command::Serve => {
            let config = read_config()?;
            telemetry::init(!config.env.is_local());
            match crate::http::serve::raise_open_file_limit() {
                Ok(limit) => tracing::debug!(limit, "open-file limit"),
                Err(err) => tracing::warn!(error = %err, "the open-file limit could not be raised"),
            }
            let app = Application::build(config).await?;
            // Made now rather than at the first sign-in to a platform: see `ensure_current`.
            let state = app.state();
            crate::oidc::keys::ensure_current(&state.db, &state.vault)
                .await
                .map_err(crate::error::Error::into_anyhow)
                .context("the OpenID Provider's signing keys could not be made")?;
            app.run_until_stopped().await
        }
        Command::Migrate => {
            let config = read_config()?;
            telemetry::init(!config.env.is_local());
            let db = db::connect(config.database_url.expose()).await?;
            db::migrate(&db).await?;
            println!("Database is up to date.");
            Ok(())
        }
        Command::CreateAdmin { email, name } => {
            let config = read_config()?;
            create_admin(&config, &email, &name).await
        }
        Command::DisableTwoFactor { email, reason } => {
            let config = read_config()?;
            disable_two_factor(&config, &email, &reason).await
        }
        Command::OauthClient(command) => {
            let db = database_only(env_file.as_deref()).await?;
            oauth_client(&db, command).await
        }
        Command::SigningKey(SigningKeyCommand::Rotate) => {
            let config = read_config()?;
            let db = db::connect(config.database_url.expose()).await?;
            db::migrate(&db).await?;
            let vault = crate::oidc::keys::Vault::new(&config.key_encryption);
            crate::oidc::keys::reseal_all(&db, &vault)
                .await
                .map_err(crate::error::Error::into_anyhow)?;
            let kids = crate::oidc::keys::rotate(&db, &vault)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            println!("New signing keys: {}", kids.join(", "));
            println!("The previous keys stay published until the tokens they signed have expired.");
            Ok(())
        }
    }
}

/// The database of `DATABASE_URL` (after the env file, as for serving), migrated: the
/// commands that only touch data need no other setting.
async fn database_only(env_file: Option<&std::path::Path>) -> anyhow::Result<sea_orm::DatabaseConnection> {
    match env_file {
        Some(path) => {
            dotenvy::from_path(path).with_context(|| format!("could not read {}", path.display()))?;
        }
        None => {
            let path = std::path::Path::new(".env");
            if environment_says_local() && path.exists() {
                dotenvy::from_path(path).with_context(|| format!("could not read {}", path.display()))?;
            }
        }
    }
    // Read as the server reads it: trimmed, and blank means unset.
    let url = std::env::var("DATABASE_URL")
        .ok()
        .map(|url| url.trim().to_owned())
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| crate::config::DEFAULT_DATABASE_URL.to_owned());
    let db = db::connect(&url).await?;
    db::migrate(&db).await?;
    Ok(db)
}

async fn oauth_client(db: &sea_orm::DatabaseConnection, command: OauthClientCommand) -> anyhow::Result<()> {
    use crate::oidc::clients;
    let fail = |e: crate::error::Error| anyhow::anyhow!("{e}");
    match command {
        OauthClientCommand::Create {
            name,
            redirect_uris,
            post_logout_redirect_uris,
            backchannel_logout_uri,
            public,
            first_party,
            id_token_alg,
        } => {
            let new = clients::NewClient {
                name,
                redirect_uris,
                post_logout_redirect_uris,
                backchannel_logout_uri,
                public,
                first_party,
                id_token_alg,
            };
            let (client, secret) = clients::create(db, new, environment_says_local())
                .await
                .map_err(fail)?;
            println!("client_id: {}", client.client_id);
            if let Some(secret) = secret {
                println!("client_secret: {secret}");
                eprintln!("Keep the secret now: it is stored hashed and cannot be shown again.");
            }
        }
        OauthClientCommand::List => {
            for client in clients::list(db).await.map_err(fail)? {
                let kind = match (client.public, client.first_party) {
                    (true, true) => "public, first-party",
                    (true, false) => "public",
                    (false, true) => "confidential, first-party",
                    (false, false) => "confidential",
                };
                println!(
                    "{}\t{}\t{kind}\t{}\t{}",
                    client.client_id,
                    client.name,
                    client.id_token_alg.as_str(),
                    client.redirect_uris.join(" ")
                );
            }
        }
        OauthClientCommand::RotateSecret { client_id } => {
            let secret = clients::rotate_secret(db, &client_id).await.map_err(fail)?;
            println!("client_id: {client_id}");
            println!("client_secret: {secret}");
        }
        OauthClientCommand::Delete { client_id } => {
            clients::delete(db, &client_id).await.map_err(fail)?;
            println!("Deleted {client_id}.");
        }
    }
    Ok(())
}

/// Reads the env file (values already in the environment win), then validates.
///
/// `.env` holds local development settings, so it is read only when the environment itself
/// says `APP_ENV=local`: a process whose environment names no `APP_ENV` refuses to start
/// (`Missing required environment variable: APP_ENV`) rather than trusting the file's own
/// line, so a production host never picks up a stray `.env`. `--env-file` reads the named
/// file in any case.
///
/// # Errors
/// `Missing required environment variable: {NAME}` and the like; an unreadable env file.
pub fn load_config(env_file: Option<&std::path::Path>) -> anyhow::Result<Config> {
    let read = |path: &std::path::Path| {
        dotenvy::from_path(path).with_context(|| format!("could not read {}", path.display()))
    };
    match env_file {
        Some(path) => read(path)?,
        None => {
            let path = std::path::Path::new(".env");
            if environment_says_local() && path.exists() {
                read(path)?;
            }
        }
    }
    Ok(Config::from_env()?)
}

fn environment_says_local() -> bool {
    std::env::var("APP_ENV").is_ok_and(|env| env.trim() == "local")
}

async fn disable_two_factor(config: &Config, email: &str, reason: &str) -> anyhow::Result<()> {
    let email = Email::parse(Some(email)).map_err(anyhow::Error::msg)?;
    let reason = reason.trim();
    anyhow::ensure!(!reason.is_empty(), "Give a --reason for the audit log");
    let db = db::connect(config.database_url.expose()).await?;
    db::migrate(&db).await?;
    let fail = |e: crate::error::Error| anyhow::anyhow!("{e}");
    let user = find_by_email(&db, &email)
        .await
        .map_err(fail)?
        .ok_or_else(|| anyhow::anyhow!("No account has the email {}", email.as_str()))?;
    anyhow::ensure!(
        user.two_factor_enabled,
        "Two-factor sign-in is not on for {}",
        email.as_str()
    );
    let txn = crate::db::begin_write(&db).await?;
    crate::accounts::two_factor::turn_off(&txn, &user)
        .await
        .map_err(fail)?;
    let ended = crate::accounts::sessions::end_all(&txn, user.id, None)
        .await
        .map_err(fail)?;
    let link = format!("{}/security", config.platforms.main);
    let notice = crate::mail::two_factor_changed(&config.app_name, &user.email, &user.name, false, &link);
    crate::mail::enqueue(&txn, notice.about(user.id))
        .await
        .map_err(fail)?;
    Event::new(
        Kind::TwoFactorDisabled,
        Some(user.id),
        &crate::client::ClientInfo::default(),
    )
    .detail(format!(
        "by an operator: {}",
        reason.chars().take(200).collect::<String>()
    ))
    .record(&txn)
    .await
    .map_err(fail)?;
    txn.commit().await?;
    println!(
        "Two-factor sign-in is off for {}; {ended} sessions ended; the owner was mailed.",
        email.as_str()
    );
    Ok(())
}

fn export_schema(out: Option<PathBuf>) -> anyhow::Result<()> {
    let sdl = graphql::sdl();
    match out {
        Some(path) => {
            std::fs::write(&path, sdl).with_context(|| format!("could not write {}", path.display()))
        }
        None => {
            print!("{sdl}");
            Ok(())
        }
    }
}

async fn create_admin(config: &Config, email: &str, name: &str) -> anyhow::Result<()> {
    let email = Email::parse(Some(email)).map_err(anyhow::Error::msg)?;
    let name = Name::parse(Some(name), "Name").map_err(anyhow::Error::msg)?;
    // Blank counts as unset, as for every setting: a template's empty line leaves stdin.
    let password = match std::env::var("ADMIN_PASSWORD") {
        Ok(password) if !password.trim().is_empty() => password,
        _ => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .context("could not read the password from stdin")?;
            input.trim_end_matches(['\r', '\n']).to_owned()
        }
    };
    let password =
        Password::parse_reset(Some(&password)).map_err(|m| anyhow::anyhow!("Admin password: {m}"))?;
    let hash = PasswordHasher::new()
        .hash(&password)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let db = db::connect(config.database_url.expose()).await?;
    db::migrate(&db).await?;
    let operator = crate::client::ClientInfo::default();
    let made = admin::make_admin(&db, &email, name, hash, &operator, "the command line")
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    match made {
        MadeAdmin::Promoted { sessions_ended, name } => {
            println!(
                "{} is now an admin, with the password given (the old one no longer works); its name stays \"{name}\".",
                email.as_str()
            );
            if sessions_ended > 0 {
                println!("Its {sessions_ended} signed-in sessions were ended.");
            }
        }
        MadeAdmin::Created => println!("Admin {} created.", email.as_str()),
    }
    Ok(())
}
