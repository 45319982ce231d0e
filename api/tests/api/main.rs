//! Integration tests: the real server on a random port, a fresh database (SQLite always,
//! PostgreSQL when TEST_POSTGRES_URL is set), a real SMTP listener.

#[macro_use]
mod helpers;
mod idp;
mod smtp;

mod account_security;
mod accounts_deletion;
mod accounts_email_code;
mod accounts_login;
mod accounts_password_reset;
mod accounts_profile;
mod accounts_register;
mod admin;
mod connections;
mod faults;
mod foundation;
mod google;
mod hardening;
mod instances;
mod magic_link;
mod mail_delivery;
mod news;
mod operator;
mod organizations;
mod passkeys;
mod providers;
mod proxy;
mod second_factor_limits;
mod security;
mod soak;
mod sso;
mod twins;
mod two_factor;
