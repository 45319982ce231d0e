//! Configuration: read from the environment once at start-up, validated, secrets redacted.

use std::{fmt, net::SocketAddr, path::PathBuf};

use url::Url;

/// Which deployment this process is. Only `local` relaxes anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppEnv {
    Local,
    Development,
    Staging,
    Production,
}

impl AppEnv {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Local => "local",
            Self::Development => "development",
            Self::Staging => "staging",
            Self::Production => "production",
        }
    }

    pub fn is_local(self) -> bool {
        self == Self::Local
    }
}

/// A value that must never reach a log line or a response.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// The four sites of the suite. Each is an origin without a trailing slash.
#[derive(Clone, Debug)]
pub struct PlatformUrls {
    pub main: String,
    pub hire: String,
    pub campus: String,
    pub career: String,
    /// `HIRE_SIGN_IN_URL`, `CAMPUS_SIGN_IN_URL`, `CAREER_SIGN_IN_URL`: each platform's own
    /// sign-in entry (it signs the person in through Talent Suite's OpenID Provider); the
    /// header's Dashboard link opens it. Unset, the link opens the platform's URL.
    pub sign_in: PlatformSignIn,
}

/// The platforms' sign-in entries, when configured.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlatformSignIn {
    pub hire: Option<String>,
    pub campus: Option<String>,
    pub career: Option<String>,
}

impl PlatformUrls {
    pub fn all(&self) -> [&str; 4] {
        [&self.main, &self.hire, &self.campus, &self.career]
    }
}

#[derive(Clone, Debug)]
pub struct GoogleConfig {
    /// Google sign-in is offered only when a client id is configured.
    pub client_id: Option<String>,
    pub client_secret: Option<Secret>,
    pub issuer: String,
    pub auth_url: String,
    pub token_url: String,
    pub jwks_url: String,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub env: AppEnv,
    pub app_name: String,
    pub database_url: Secret,
    pub bind_addr: SocketAddr,
    pub jwt_secret: Secret,
    pub platforms: PlatformUrls,
    pub cookie_domain: Option<String>,
    /// `None` only under `APP_ENV=local`: mail then stays in the outbox for `/dev/mailbox`.
    pub smtp_url: Option<Secret>,
    pub mail_from: String,
    pub google: GoogleConfig,
    /// LinkedIn, Microsoft and GitHub, each when configured.
    pub providers: crate::providers::config::ProvidersConfig,
    pub client_dist_dir: PathBuf,
    /// `APP_DEBUG`: the specification's debug flag, handed to the site.
    pub debug: bool,
    /// `RATE_LIMIT_PER_IP`: API requests per route per address per ten minutes (0: off).
    pub rate_limit_per_ip: u32,
    /// A session unused for this long ends.
    pub session_idle: chrono::Duration,
    /// A session ends this long after sign-in, however active.
    pub session_lifetime: chrono::Duration,
    /// Whether GraphQL answers introspection queries.
    pub graphql_introspection: bool,
    /// `TRUSTED_PROXIES`: the proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `METRICS_ADDR`: serve `/metrics` on this address only.
    pub metrics_addr: Option<SocketAddr>,
    /// `METRICS_TOKEN`: `/metrics` on the main address needs this bearer token.
    pub metrics_token: Option<Secret>,
    /// `KEY_ENCRYPTION_KEY` and `KEY_ENCRYPTION_KEY_PREVIOUS`: seal the provider's signing keys.
    pub key_encryption: KeyEncryptionKeys,
    /// `HEADER_READ_TIMEOUT`: how long a connection has to send a request's headers, counted
    /// from when the server starts waiting for them (an idle connection's wait too).
    pub header_read_timeout: std::time::Duration,
    /// `MAX_CONNECTIONS`: connections served at once; `None`, as many as the open-file limit
    /// allows (see `http::serve`).
    pub max_connections: Option<usize>,
}

/// 256-bit keys that seal the OpenID Provider's private keys in the database: the current one,
/// and the ones it replaced (whatever they sealed is sealed again with the current one at start).
#[derive(Clone, PartialEq, Eq)]
pub struct KeyEncryptionKeys {
    pub current: [u8; 32],
    pub previous: Vec<[u8; 32]>,
}

impl fmt::Debug for KeyEncryptionKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "KeyEncryptionKeys(<redacted>, {} previous)",
            self.previous.len()
        )
    }
}

/// A 256-bit key written as 64 hex digits (`openssl rand -hex 32`) or standard base64.
fn key_256(name: &'static str, value: &str) -> Result<[u8; 32], ConfigError> {
    use base64::Engine;
    let bytes = hex::decode(value)
        .ok()
        .or_else(|| base64::engine::general_purpose::STANDARD.decode(value).ok());
    bytes
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| ConfigError::Invalid {
            name,
            reason: "expected 32 random bytes as 64 hex digits (openssl rand -hex 32) or base64".to_owned(),
        })
}

fn key_encryption_keys(
    get: &impl Fn(&str) -> Option<String>,
    env: AppEnv,
    jwt_secret: &str,
) -> Result<KeyEncryptionKeys, ConfigError> {
    use sha2::Digest;
    const NAME: &str = "KEY_ENCRYPTION_KEY";
    let current = match get(NAME) {
        Some(value) => key_256(NAME, &value)?,
        // A laptop's keys are still sealed, under a key derived from its own secret.
        None if env.is_local() => sha2::Sha256::digest(format!("talent-suite/kek/{jwt_secret}")).into(),
        None => return Err(ConfigError::Missing(NAME)),
    };
    let previous = get("KEY_ENCRYPTION_KEY_PREVIOUS")
        .unwrap_or_default()
        .split([',', ' '])
        .filter(|part| !part.is_empty())
        .map(|part| key_256("KEY_ENCRYPTION_KEY_PREVIOUS", part))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(KeyEncryptionKeys { current, previous })
}

/// Why the configuration was refused. The text is what the operator sees before exit.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("Missing required environment variable: {0}")]
    Missing(&'static str),
    #[error("Invalid value for environment variable {name}: {reason}")]
    Invalid { name: &'static str, reason: String },
}

pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/app.db?mode=rwc";
pub const DEFAULT_BIND_ADDR: &str = "127.0.0.1:8080";
/// API.md: at least 600 requests per 10 minutes per route from one address.
pub const DEFAULT_RATE_LIMIT_PER_IP: u32 = 600;
const MIN_SECRET_LEN: usize = 32;
/// The secret of the checked-in `.env`: fine on a laptop, never anywhere else.
pub const SAMPLE_JWT_SECRET: &str = "local-development-secret-change-me-in-production";

impl Config {
    /// Reads the process environment (after `.env`, if the caller loaded one).
    ///
    /// # Errors
    /// When a required value is missing or a value is malformed.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Builds the configuration from any source of variables; tests pass a map.
    ///
    /// # Errors
    /// When a required value is missing or a value is malformed.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let required = |name: &'static str| get(name).ok_or(ConfigError::Missing(name));

        let env = match required("APP_ENV")?.as_str() {
            "local" => AppEnv::Local,
            "development" => AppEnv::Development,
            "staging" => AppEnv::Staging,
            "production" => AppEnv::Production,
            other => {
                return Err(ConfigError::Invalid {
                    name: "APP_ENV",
                    reason: format!("'{other}' is not one of local, development, staging, production"),
                });
            }
        };
        let app_name = required("APP_NAME")?;
        let jwt_secret = required("JWT_SECRET")?;
        if !env.is_local() && jwt_secret == SAMPLE_JWT_SECRET {
            return Err(ConfigError::Invalid {
                name: "JWT_SECRET",
                reason: "is the repository's sample secret; generate one (e.g. openssl rand -hex 32)"
                    .to_owned(),
            });
        }
        if !env.is_local() && jwt_secret.len() < MIN_SECRET_LEN {
            return Err(ConfigError::Invalid {
                name: "JWT_SECRET",
                reason: format!("must be at least {MIN_SECRET_LEN} bytes outside local"),
            });
        }
        let platforms = PlatformUrls {
            main: origin("MAIN_PLATFORM_URL", &required("MAIN_PLATFORM_URL")?)?,
            hire: origin("HIRE_PLATFORM_URL", &required("HIRE_PLATFORM_URL")?)?,
            campus: origin("CAMPUS_PLATFORM_URL", &required("CAMPUS_PLATFORM_URL")?)?,
            career: origin("CAREER_PLATFORM_URL", &required("CAREER_PLATFORM_URL")?)?,
            sign_in: PlatformSignIn {
                hire: get("HIRE_SIGN_IN_URL")
                    .map(|u| web_url("HIRE_SIGN_IN_URL", &u))
                    .transpose()?,
                campus: get("CAMPUS_SIGN_IN_URL")
                    .map(|u| web_url("CAMPUS_SIGN_IN_URL", &u))
                    .transpose()?,
                career: get("CAREER_SIGN_IN_URL")
                    .map(|u| web_url("CAREER_SIGN_IN_URL", &u))
                    .transpose()?,
            },
        };
        let smtp_url = match get("SMTP_URL") {
            Some(url) => Some(Secret::new(url)),
            None if env.is_local() => None,
            None => return Err(ConfigError::Missing("SMTP_URL")),
        };
        if env == AppEnv::Production
            && smtp_url.as_ref().is_some_and(|url| is_plain_smtp(url.expose()))
            && !flag(&get, "SMTP_ALLOW_PLAINTEXT", false)?
        {
            return Err(ConfigError::Invalid {
                name: "SMTP_URL",
                reason: "sends mail in plain text; use smtps:// or smtp://…?tls=required (or set \
                         SMTP_ALLOW_PLAINTEXT=true for a relay on a private network)"
                    .to_owned(),
            });
        }
        let mail_from = match get("MAIL_FROM") {
            Some(from) => from,
            None if env.is_local() => format!("{app_name} <no-reply@localhost>"),
            None => return Err(ConfigError::Missing("MAIL_FROM")),
        };
        let bind_addr = listen_addr(
            "BIND_ADDR",
            &get("BIND_ADDR").unwrap_or_else(|| DEFAULT_BIND_ADDR.to_owned()),
            env,
            "127.0.0.1:8080",
        )?;
        let google = GoogleConfig {
            client_id: get("GOOGLE_CLIENT_ID"),
            client_secret: get("GOOGLE_CLIENT_SECRET").map(Secret::new),
            issuer: get("GOOGLE_ISSUER").unwrap_or_else(|| "https://accounts.google.com".to_owned()),
            auth_url: get("GOOGLE_AUTH_URL")
                .unwrap_or_else(|| "https://accounts.google.com/o/oauth2/v2/auth".to_owned()),
            token_url: get("GOOGLE_TOKEN_URL")
                .unwrap_or_else(|| "https://oauth2.googleapis.com/token".to_owned()),
            jwks_url: get("GOOGLE_JWKS_URL")
                .unwrap_or_else(|| "https://www.googleapis.com/oauth2/v3/certs".to_owned()),
        };
        let providers = crate::providers::config::load(&get)?;
        let debug = flag(&get, "APP_DEBUG", false)?;
        let rate_limit_per_ip = match get("RATE_LIMIT_PER_IP") {
            None => DEFAULT_RATE_LIMIT_PER_IP,
            Some(value) => value.parse().map_err(|_| ConfigError::Invalid {
                name: "RATE_LIMIT_PER_IP",
                reason: "expected a whole number of requests per ten minutes (0 turns it off)".to_owned(),
            })?,
        };
        let session_lifetime = duration(&get, "SESSION_LIFETIME", chrono::Duration::days(30))?;
        // Unset, the idle timeout is its default or the lifetime, whichever is shorter: a
        // lifetime of an hour alone is a whole setting, not a conflict with an unset default.
        let session_idle = duration(
            &get,
            "SESSION_IDLE_TIMEOUT",
            chrono::Duration::days(7).min(session_lifetime),
        )?;
        if session_idle > session_lifetime {
            return Err(ConfigError::Invalid {
                name: "SESSION_IDLE_TIMEOUT",
                reason: "must not be longer than SESSION_LIFETIME".to_owned(),
            });
        }
        let key_encryption = key_encryption_keys(&get, env, &jwt_secret)?;
        let header_read_timeout = duration(&get, "HEADER_READ_TIMEOUT", DEFAULT_HEADER_READ_TIMEOUT)?;
        // A deadline past the clock's range would panic in every connection's task.
        let header_read_timeout = header_read_timeout
            .to_std()
            .ok()
            .filter(|limit| *limit <= MAX_HEADER_READ_TIMEOUT)
            .ok_or_else(|| ConfigError::Invalid {
                name: "HEADER_READ_TIMEOUT",
                reason: "expected a duration from 1s to 1h, such as 30s".to_owned(),
            })?;
        let max_connections = get("MAX_CONNECTIONS")
            .map(|value| positive_count("MAX_CONNECTIONS", &value))
            .transpose()?;
        Ok(Self {
            env,
            app_name,
            database_url: Secret::new(get("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.to_owned())),
            bind_addr,
            jwt_secret: Secret::new(jwt_secret),
            platforms,
            cookie_domain: get("COOKIE_DOMAIN"),
            smtp_url,
            mail_from,
            google,
            providers,
            client_dist_dir: get("CLIENT_DIST_DIR")
                .map_or_else(|| PathBuf::from("client/dist"), PathBuf::from),
            debug,
            rate_limit_per_ip,
            session_idle,
            session_lifetime,
            graphql_introspection: flag(&get, "GRAPHQL_INTROSPECTION", env != AppEnv::Production)?,
            trusted_proxies: get("TRUSTED_PROXIES")
                .map(|value| trusted_proxies(&value))
                .transpose()?
                .unwrap_or_default(),
            metrics_addr: get("METRICS_ADDR")
                .map(|value| listen_addr("METRICS_ADDR", &value, env, "127.0.0.1:9100"))
                .transpose()?,
            metrics_token: get("METRICS_TOKEN").map(Secret::new),
            key_encryption,
            header_read_timeout,
            max_connections,
        })
    }
}

/// An address to listen on (`host:port`, `example` shown when it is not one); under local only
/// a loopback one, for every listener alike (the API's and the metrics').
fn listen_addr(
    name: &'static str,
    value: &str,
    env: AppEnv,
    example: &str,
) -> Result<SocketAddr, ConfigError> {
    let addr: SocketAddr = value.parse().map_err(|_| ConfigError::Invalid {
        name,
        reason: format!("expected host:port, e.g. {example}"),
    })?;
    if env.is_local() && !addr.ip().is_loopback() {
        return Err(ConfigError::Invalid {
            name,
            reason: "APP_ENV=local listens on loopback only (127.0.0.1 or ::1): its settings \
                     are for one developer's machine"
                .to_owned(),
        });
    }
    Ok(addr)
}

/// A whole number, at least 1.
fn positive_count(name: &'static str, value: &str) -> Result<usize, ConfigError> {
    value
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| ConfigError::Invalid {
            name,
            reason: "expected a whole number, at least 1".to_owned(),
        })
}

/// `HEADER_READ_TIMEOUT` unless set. It is also how long an idle connection is kept, and a
/// proxy in front must be the one to close an idle connection, or a request it sends on one
/// just as we close it fails: longer than the 60 s of nginx's upstream keep-alive and of the
/// common cloud load balancers.
const DEFAULT_HEADER_READ_TIMEOUT: chrono::Duration = chrono::Duration::seconds(65);

/// The longest `HEADER_READ_TIMEOUT` accepted.
const MAX_HEADER_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3600);

/// `true`/`false` (or `1`/`0`), `default` when unset.
fn flag(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    default: bool,
) -> Result<bool, ConfigError> {
    match get(name).as_deref() {
        None => Ok(default),
        Some("true" | "1") => Ok(true),
        Some("false" | "0") => Ok(false),
        Some(_) => Err(ConfigError::Invalid {
            name,
            reason: "expected true or false".to_owned(),
        }),
    }
}

/// A positive whole number with a unit: `45s`, `90m`, `12h`, `7d` (a bare number is seconds).
fn duration(
    get: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    default: chrono::Duration,
) -> Result<chrono::Duration, ConfigError> {
    let Some(value) = get(name) else {
        return Ok(default);
    };
    let invalid = || ConfigError::Invalid {
        name,
        reason: "expected a positive duration such as 45s, 90m, 12h or 7d".to_owned(),
    };
    let (number, unit) = match value.char_indices().last() {
        Some((i, unit)) if unit.is_ascii_alphabetic() => (&value[..i], unit),
        _ => (value.as_str(), 's'),
    };
    let number: i64 = number.trim().parse().map_err(|_| invalid())?;
    if number <= 0 {
        return Err(invalid());
    }
    let seconds = match unit {
        's' => Some(number),
        'm' => number.checked_mul(60),
        'h' => number.checked_mul(3600),
        'd' => number.checked_mul(86_400),
        _ => None,
    };
    seconds
        .filter(|s| *s <= 10 * 365 * 86_400)
        .map(chrono::Duration::seconds)
        .ok_or_else(invalid)
}

/// `smtp://` without `tls=required`: STARTTLS is only attempted, or not at all.
fn is_plain_smtp(url: &str) -> bool {
    let Ok(url) = Url::parse(url) else {
        return false;
    };
    url.scheme() == "smtp"
        && !url
            .query_pairs()
            .any(|(key, value)| key == "tls" && value == "required")
}

/// Addresses or CIDR ranges, separated by commas or spaces: `10.0.0.0/8, 127.0.0.1, ::1`.
fn trusted_proxies(value: &str) -> Result<Vec<ipnet::IpNet>, ConfigError> {
    value
        .split([',', ' '])
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.parse::<ipnet::IpNet>()
                .or_else(|_| part.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| ConfigError::Invalid {
                    name: "TRUSTED_PROXIES",
                    reason: format!("'{part}' is not an address or a CIDR range"),
                })
        })
        .collect()
}

/// An http(s) URL, without a trailing slash: a page a link may open.
fn web_url(name: &'static str, value: &str) -> Result<String, ConfigError> {
    let invalid = |reason: &str| ConfigError::Invalid {
        name,
        reason: reason.to_owned(),
    };
    let url = Url::parse(value).map_err(|_| invalid("expected an http(s) URL"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(invalid("expected an http(s) URL"));
    }
    Ok(value.trim_end_matches('/').to_owned())
}

/// A site's origin: scheme, host and port, nothing else (a trailing slash is allowed). The
/// platform URLs are what browsers send as `Origin`, so the CORS list and the cross-site rule
/// compare them as such: a path could never match and would silently let nothing in.
fn origin(name: &'static str, value: &str) -> Result<String, ConfigError> {
    let invalid = || ConfigError::Invalid {
        name,
        reason: format!(
            "must be an origin (scheme, host and port, such as https://hire.example.com or http://localhost:8081), not {value:?}"
        ),
    };
    let url = Url::parse(value).map_err(|_| invalid())?;
    let bare = url.path() == "/" && url.query().is_none() && url.fragment().is_none();
    if !matches!(url.scheme(), "http" | "https")
        || url.host().is_none()
        || !bare
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(invalid());
    }
    Ok(url.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn local() -> HashMap<&'static str, &'static str> {
        HashMap::from([
            ("APP_ENV", "local"),
            ("APP_NAME", "Talent Suite"),
            ("JWT_SECRET", "short"),
            ("MAIN_PLATFORM_URL", "http://localhost:8080/"),
            ("HIRE_PLATFORM_URL", "http://localhost:8081"),
            ("CAMPUS_PLATFORM_URL", "http://localhost:8082"),
            ("CAREER_PLATFORM_URL", "http://localhost:8083"),
        ])
    }

    fn load(vars: &HashMap<&'static str, &'static str>) -> Result<Config, ConfigError> {
        Config::from_lookup(|name| vars.get(name).map(|v| (*v).to_owned()))
    }

    #[test]
    fn a_local_setup_needs_no_mail_server_and_uses_the_defaults() {
        let config = load(&local()).expect("valid");
        assert_eq!(config.smtp_url, None);
        assert_eq!(config.database_url.expose(), DEFAULT_DATABASE_URL);
        assert_eq!(config.bind_addr.to_string(), DEFAULT_BIND_ADDR);
        assert_eq!(config.platforms.main, "http://localhost:8080");
    }

    #[test]
    fn each_missing_required_value_is_named_exactly() {
        for name in [
            "APP_ENV",
            "APP_NAME",
            "JWT_SECRET",
            "MAIN_PLATFORM_URL",
            "HIRE_PLATFORM_URL",
            "CAMPUS_PLATFORM_URL",
            "CAREER_PLATFORM_URL",
        ] {
            let mut vars = local();
            vars.remove(name);
            let err = load(&vars).expect_err(name);
            assert_eq!(
                err.to_string(),
                format!("Missing required environment variable: {name}")
            );
        }
    }

    #[test]
    fn a_blank_value_counts_as_missing() {
        let mut vars = local();
        vars.insert("APP_NAME", "   ");
        assert_eq!(load(&vars).unwrap_err(), ConfigError::Missing("APP_NAME"));
    }

    #[test]
    fn every_environment_but_local_refuses_the_sample_and_short_secrets() {
        for env in ["development", "staging", "production"] {
            let mut vars = local();
            vars.insert("APP_ENV", env);
            vars.insert("SMTP_URL", "smtps://mail.example.com");
            vars.insert("MAIL_FROM", "x@example.com");
            vars.insert("JWT_SECRET", SAMPLE_JWT_SECRET);
            assert!(
                matches!(
                    load(&vars),
                    Err(ConfigError::Invalid {
                        name: "JWT_SECRET",
                        ..
                    })
                ),
                "{env}"
            );
            vars.insert("JWT_SECRET", "only-thirty-one-characters-long");
            assert!(
                matches!(
                    load(&vars),
                    Err(ConfigError::Invalid {
                        name: "JWT_SECRET",
                        ..
                    })
                ),
                "{env}"
            );
            vars.insert("JWT_SECRET", "0123456789abcdef0123456789abcdef");
            vars.insert("KEY_ENCRYPTION_KEY", KEK);
            assert!(load(&vars).is_ok(), "{env}");
        }
        let mut vars = local();
        vars.insert("JWT_SECRET", SAMPLE_JWT_SECRET);
        assert!(
            load(&vars).is_ok(),
            "local keeps working with the checked-in .env"
        );
    }

    #[test]
    fn local_listens_on_loopback_only() {
        let mut vars = local();
        vars.insert("BIND_ADDR", "0.0.0.0:8080");
        assert!(matches!(
            load(&vars),
            Err(ConfigError::Invalid {
                name: "BIND_ADDR",
                ..
            })
        ));
        vars.insert("BIND_ADDR", "[::1]:8080");
        assert!(load(&vars).is_ok());
        // The metrics' listener too: it would hand every request count to the network.
        vars.insert("METRICS_ADDR", "0.0.0.0:9100");
        assert!(matches!(
            load(&vars),
            Err(ConfigError::Invalid {
                name: "METRICS_ADDR",
                ..
            })
        ));
        vars.insert("METRICS_ADDR", "127.0.0.1:9100");
        assert!(load(&vars).is_ok());
    }

    #[test]
    fn production_refuses_plain_text_smtp_unless_allowed() {
        let mut vars = local();
        vars.insert("APP_ENV", "production");
        vars.insert("JWT_SECRET", "0123456789abcdef0123456789abcdef");
        vars.insert("MAIL_FROM", "x@example.com");
        vars.insert("KEY_ENCRYPTION_KEY", KEK);
        for plain in [
            "smtp://mail.example.com:25",
            "smtp://mail.example.com:587?tls=opportunistic",
        ] {
            vars.insert("SMTP_URL", plain);
            let Err(ConfigError::Invalid {
                name: "SMTP_URL",
                reason,
            }) = load(&vars)
            else {
                panic!("{plain} is refused");
            };
            assert!(
                reason.ends_with(
                    "tls=required (or set SMTP_ALLOW_PLAINTEXT=true for a relay on a private network)"
                ),
                "one line, as the operator reads it: {reason}"
            );
        }
        for secure in [
            "smtps://mail.example.com",
            "smtp://mail.example.com:587?tls=required",
        ] {
            vars.insert("SMTP_URL", secure);
            assert!(load(&vars).is_ok(), "{secure}");
        }
        vars.insert("SMTP_URL", "smtp://relay.internal:25");
        vars.insert("SMTP_ALLOW_PLAINTEXT", "true");
        assert!(load(&vars).is_ok());
    }

    #[test]
    fn session_durations_take_units_and_idle_fits_in_the_lifetime() {
        let mut vars = local();
        vars.insert("SESSION_IDLE_TIMEOUT", "90m");
        vars.insert("SESSION_LIFETIME", "2d");
        let config = load(&vars).expect("valid");
        assert_eq!(config.session_idle, chrono::Duration::minutes(90));
        assert_eq!(config.session_lifetime, chrono::Duration::days(2));
        vars.insert("SESSION_IDLE_TIMEOUT", "3d");
        assert!(matches!(
            load(&vars),
            Err(ConfigError::Invalid {
                name: "SESSION_IDLE_TIMEOUT",
                ..
            })
        ));
        for bad in ["0", "-5m", "7 weeks", "x"] {
            vars.insert("SESSION_IDLE_TIMEOUT", bad);
            assert!(load(&vars).is_err(), "{bad}");
        }
        // A lifetime shorter than the idle timeout's default, set alone, is a whole setting:
        // the idle timeout follows it down.
        let mut short = local();
        short.insert("SESSION_LIFETIME", "1h");
        let config = load(&short).expect("a lifetime alone is enough");
        assert_eq!(config.session_idle, chrono::Duration::hours(1));
        assert_eq!(config.session_lifetime, chrono::Duration::hours(1));
        let defaults = load(&local()).expect("valid");
        assert_eq!(defaults.session_idle, chrono::Duration::days(7));
        assert_eq!(defaults.session_lifetime, chrono::Duration::days(30));
        assert!(defaults.graphql_introspection);
    }

    #[test]
    fn connection_limits_take_a_bounded_duration_and_a_positive_count() {
        let defaults = load(&local()).expect("valid");
        assert_eq!(defaults.header_read_timeout, std::time::Duration::from_secs(65));
        assert_eq!(defaults.max_connections, None);
        let mut vars = local();
        vars.insert("HEADER_READ_TIMEOUT", "10s");
        vars.insert("MAX_CONNECTIONS", "5000");
        let config = load(&vars).expect("valid");
        assert_eq!(config.header_read_timeout, std::time::Duration::from_secs(10));
        assert_eq!(config.max_connections, Some(5000));
        for bad in ["0", "2h", "99999999999d", "soon"] {
            vars.insert("HEADER_READ_TIMEOUT", bad);
            assert!(
                matches!(
                    load(&vars),
                    Err(ConfigError::Invalid {
                        name: "HEADER_READ_TIMEOUT",
                        ..
                    })
                ),
                "{bad}"
            );
        }
        vars.insert("HEADER_READ_TIMEOUT", "30s");
        for bad in ["0", "-1", "many", "1.5"] {
            vars.insert("MAX_CONNECTIONS", bad);
            assert!(
                matches!(
                    load(&vars),
                    Err(ConfigError::Invalid {
                        name: "MAX_CONNECTIONS",
                        ..
                    })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn production_refuses_a_short_secret_and_a_missing_mail_server() {
        let mut vars = local();
        vars.insert("APP_ENV", "production");
        assert!(matches!(
            load(&vars),
            Err(ConfigError::Invalid {
                name: "JWT_SECRET",
                ..
            })
        ));
        vars.insert("JWT_SECRET", "0123456789abcdef0123456789abcdef");
        assert_eq!(load(&vars).unwrap_err(), ConfigError::Missing("SMTP_URL"));
        vars.insert("SMTP_URL", "smtps://mail.example.com");
        assert_eq!(load(&vars).unwrap_err(), ConfigError::Missing("MAIL_FROM"));
        vars.insert("MAIL_FROM", "x@example.com");
        assert_eq!(
            load(&vars).unwrap_err(),
            ConfigError::Missing("KEY_ENCRYPTION_KEY")
        );
        vars.insert("KEY_ENCRYPTION_KEY", KEK);
        assert!(
            !load(&vars).expect("valid").graphql_introspection,
            "off in production"
        );
    }

    const KEK: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn the_key_encryption_key_is_256_bits_in_hex_or_base64_with_its_predecessors() {
        let mut vars = local();
        let derived = load(&vars).expect("local derives one").key_encryption;
        assert!(derived.previous.is_empty());
        vars.insert("KEY_ENCRYPTION_KEY", KEK);
        let config = load(&vars).expect("hex");
        assert_ne!(config.key_encryption.current, derived.current);
        assert_eq!(config.key_encryption.current[1], 0x11);
        vars.insert(
            "KEY_ENCRYPTION_KEY",
            "ABEiM0RVZneImaq7zN3u/wARIjNEVWZ3iJmqu8zd7v8=",
        );
        assert_eq!(
            load(&vars).expect("base64").key_encryption.current,
            config.key_encryption.current
        );
        vars.insert(
            "KEY_ENCRYPTION_KEY_PREVIOUS",
            "abababababababababababababababababababababababababababababababab",
        );
        assert_eq!(
            load(&vars).expect("previous").key_encryption.previous,
            vec![[0xab; 32]]
        );
        for bad in ["short", "00112233"] {
            vars.insert("KEY_ENCRYPTION_KEY", bad);
            assert!(matches!(
                load(&vars),
                Err(ConfigError::Invalid {
                    name: "KEY_ENCRYPTION_KEY",
                    ..
                })
            ));
        }
        assert!(
            !format!("{:?}", config.key_encryption).contains("0011"),
            "redacted"
        );
    }

    #[test]
    fn malformed_values_are_refused_with_their_name() {
        for bad in [
            "not a url",
            "ftp://hire.example.com",
            "https://hire.example.com/jobs",
            "https://hire.example.com/?x=1",
            "https://hire.example.com/#top",
            "https://user:pw@hire.example.com",
        ] {
            let mut vars = local();
            vars.insert("HIRE_PLATFORM_URL", bad);
            let err = load(&vars).expect_err(bad);
            assert!(
                matches!(&err, ConfigError::Invalid { name: "HIRE_PLATFORM_URL", reason } if reason.contains("must be an origin")),
                "{bad}: {err}"
            );
        }
        let mut vars = local();
        vars.insert("HIRE_PLATFORM_URL", "HTTPS://Hire.Example.com:443/");
        assert_eq!(
            load(&vars).expect("an origin").platforms.hire,
            "https://hire.example.com"
        );
        // A platform's sign-in entry is a page, so it may have a path.
        vars.insert("HIRE_SIGN_IN_URL", "https://hire.example.com/auth/sign-in");
        assert_eq!(
            load(&vars).expect("a page").platforms.sign_in.hire.as_deref(),
            Some("https://hire.example.com/auth/sign-in")
        );
        let mut vars = local();
        vars.insert("APP_ENV", "prod");
        assert!(matches!(
            load(&vars),
            Err(ConfigError::Invalid { name: "APP_ENV", .. })
        ));
    }

    #[test]
    fn trusted_proxies_are_addresses_or_ranges() {
        let mut vars = local();
        vars.insert("TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1 ::1");
        let config = load(&vars).expect("valid");
        assert_eq!(config.trusted_proxies.len(), 3);
        assert!(config.trusted_proxies[1].contains(&"127.0.0.1".parse::<std::net::IpAddr>().unwrap()));
        vars.insert("TRUSTED_PROXIES", "10.0.0.0/8, proxy.local");
        assert!(matches!(
            load(&vars),
            Err(ConfigError::Invalid {
                name: "TRUSTED_PROXIES",
                ..
            })
        ));
    }

    #[test]
    fn secrets_never_print() {
        let config = load(&local()).expect("valid");
        assert!(!format!("{config:?}").contains("short"));
    }
}
