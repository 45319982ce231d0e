//! Schema migrations. The same migrations run on SQLite and PostgreSQL, so they use only
//! portable column types and let the database enforce uniqueness and references.

pub use sea_orm_migration::prelude::*;

mod m20261122_000001_initial;
mod m20261124_000002_security;
mod m20261125_000003_two_factor;
mod m20261125_000004_openid_provider;
mod m20261125_000005_news_admin_order;
mod m20261126_000006_reauthentication;
mod m20261126_000007_organizations;
mod m20261126_000008_sign_in_links;
mod m20261127_000009_passkeys;
mod m20261127_000010_identities;
mod m20261127_000011_admin_console;
mod m20261128_000012_id_token_alg;
mod m20261202_000013_members_by_name;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_initial::Migration),
            Box::new(m20261124_000002_security::Migration),
            Box::new(m20261125_000003_two_factor::Migration),
            Box::new(m20261125_000004_openid_provider::Migration),
            Box::new(m20261125_000005_news_admin_order::Migration),
            Box::new(m20261126_000006_reauthentication::Migration),
            Box::new(m20261126_000007_organizations::Migration),
            Box::new(m20261126_000008_sign_in_links::Migration),
            Box::new(m20261127_000009_passkeys::Migration),
            Box::new(m20261127_000010_identities::Migration),
            Box::new(m20261127_000011_admin_console::Migration),
            Box::new(m20261128_000012_id_token_alg::Migration),
            Box::new(m20261202_000013_members_by_name::Migration),
        ]
    }
}
