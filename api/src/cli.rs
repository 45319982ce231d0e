//! The server binary's commands.

use std::{io::Read, path::PathBuf};

use anyhow::Context;
use chrono::Utc;
use clap::{Parser, Subcommand};
use entity::users;
use sea_orm::{ActiveModelTrait, Set};

use crate::{
    accounts::{
        self,
        fields::{Email, Name, Password, Role},
        find_by_email,
        passwords::PasswordHasher,
    },
    app::Application,
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
    /// Create an admin account, or make an existing account an admin. The password is read
    /// from ADMIN_PASSWORD or, without it, from standard input: never from the command line.
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
    /// Manage the OpenID Provider's signing keys. Needs only the database settings.
    #[command(subcommand)]
    SigningKey(SigningKeyCommand),
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
        /// One of the three platforms: no consent screen.
        #[arg(long)]
        first_party: bool,
    },
    /// List the registered clients.
    List,
    /// Give a confidential client a new secret (printed once; the old one stops working).
    RotateSecret { client_id: String },
    /// Delete a client with its tokens and consents.
    Delete { client_id: String },
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
            Application::build(config).await?.run_until_stopped().await
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
        Command::OauthClient(command) => {
            let db = database_only(env_file.as_deref()).await?;
            oauth_client(&db, command).await
        }
        Command::SigningKey(SigningKeyCommand::Rotate) => {
            let db = database_only(env_file.as_deref()).await?;
            let kids = crate::oidc::keys::rotate(&db)
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
            let local = match std::env::var("APP_ENV") {
                Ok(env) => env.trim() == "local",
                Err(_) => file_says_local(path),
            };
            if local && path.exists() {
                dotenvy::from_path(path).with_context(|| format!("could not read {}", path.display()))?;
            }
        }
    }
    let url =
        std::env::var("DATABASE_URL").unwrap_or_else(|_| crate::config::DEFAULT_DATABASE_URL.to_owned());
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
        } => {
            let new = clients::NewClient {
                name,
                redirect_uris,
                post_logout_redirect_uris,
                backchannel_logout_uri,
                public,
                first_party,
            };
            let (client, secret) = clients::create(db, new).await.map_err(fail)?;
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
                    "{}\t{}\t{kind}\t{}",
                    client.client_id,
                    client.name,
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
/// `.env` holds local development settings, so it is read only when the environment says
/// `APP_ENV=local`, or says nothing and the file itself says `APP_ENV=local`: a production
/// process never picks up a stray `.env`. `--env-file` reads the named file in any case.
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
            let local = match std::env::var("APP_ENV") {
                Ok(env) => env.trim() == "local",
                Err(_) => file_says_local(path),
            };
            if local && path.exists() {
                read(path)?;
            }
        }
    }
    Ok(Config::from_env()?)
}

fn file_says_local(path: &std::path::Path) -> bool {
    dotenvy::from_path_iter(path).is_ok_and(|vars| {
        vars.filter_map(Result::ok)
            .any(|(key, value)| key == "APP_ENV" && value.trim() == "local")
    })
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
    let password = match std::env::var("ADMIN_PASSWORD") {
        Ok(password) => password,
        Err(_) => {
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
    let now = Utc::now();
    if let Some(existing) = find_by_email(&db, &email)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?
    {
        let mut user: users::ActiveModel = existing.into();
        user.role = Set("admin".to_owned());
        user.status = Set("active".to_owned());
        user.email_verified = Set(true);
        user.password_hash = Set(Some(hash));
        user.updated_at = Set(now);
        user.update(&db).await?;
        println!("{} is now an admin.", email.as_str());
        return Ok(());
    }
    let mut admin = accounts::new_account(name.into_inner(), &email, Role::Admin, true);
    admin.password_hash = Set(Some(hash));
    admin.insert(&db).await?;
    println!("Admin {} created.", email.as_str());
    Ok(())
}
