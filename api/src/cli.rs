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
}

/// Runs the command; the process exits non-zero with the message on error.
///
/// # Errors
/// Whatever the command failed on, in words an operator can act on.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command.unwrap_or(Command::Serve) {
        Command::ExportSchema { out } => export_schema(out),
        Command::Serve => {
            let config = load_config()?;
            telemetry::init(!config.env.is_local());
            Application::build(config).await?.run_until_stopped().await
        }
        Command::Migrate => {
            let config = load_config()?;
            telemetry::init(!config.env.is_local());
            let db = db::connect(config.database_url.expose()).await?;
            db::migrate(&db).await?;
            println!("Database is up to date.");
            Ok(())
        }
        Command::CreateAdmin { email, name } => {
            let config = load_config()?;
            create_admin(&config, &email, &name).await
        }
    }
}

/// Loads `.env` (values already in the environment win), then validates.
///
/// # Errors
/// `Missing required environment variable: {NAME}` and the like.
pub fn load_config() -> anyhow::Result<Config> {
    match dotenvy::dotenv() {
        Ok(_) => {}
        Err(err) if err.not_found() => {}
        Err(err) => return Err(anyhow::anyhow!("could not read .env: {err}")),
    }
    Ok(Config::from_env()?)
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
