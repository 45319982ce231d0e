//! ID tokens of the OpenID Connect providers (LinkedIn, Microsoft): signed by a key of the
//! provider's set, from its issuer (Microsoft's multi-tenant issuer names the tenant of the
//! token, `{tid}`), for our client id, unexpired, carrying the nonce we sent.
//!
//! Which emails are vouched for: LinkedIn's when `email_verified` is true. Microsoft's `email`
//! claim is editable by the tenant's admins, so it is vouched for only when `xms_edov` (email
//! domain owner verified) is true; otherwise it is never used to join an account.

use jsonwebtoken::{Algorithm, Validation};
use serde::Deserialize;

use super::{BoolOrString, Provider, ProviderIdentity, Providers, flow::FlowError};
use crate::accounts::tokens;

#[derive(Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    email: Option<String>,
    #[serde(default)]
    email_verified: BoolOrString,
    /// Microsoft: the email's domain is verified by the tenant that issued the token.
    #[serde(default)]
    xms_edov: BoolOrString,
    /// Microsoft: the tenant.
    tid: Option<String>,
    name: Option<String>,
    nonce: Option<String>,
}

/// A tenant id as it may stand in an issuer: letters, digits and hyphens.
fn plain_tenant(tid: &str) -> bool {
    !tid.is_empty() && tid.len() <= 64 && tid.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Whether `iss` is the configured issuer, `{tid}` standing for the token's own tenant.
fn issuer_matches(configured: &str, iss: &str, tid: Option<&str>) -> bool {
    if configured.contains("{tid}") {
        tid.is_some_and(|tid| plain_tenant(tid) && configured.replace("{tid}", tid) == iss)
    } else {
        configured == iss
    }
}

/// Checks an ID token of `provider` against the nonce the flow sent.
///
/// # Errors
/// `InvalidToken` for anything that does not check out; `NotConfigured` for a provider that is
/// not an OpenID one here.
pub async fn verify(
    providers: &Providers,
    provider: Provider,
    id_token: &str,
    nonce: &str,
) -> Result<ProviderIdentity, FlowError> {
    let (config, keys) = providers.openid(provider).ok_or(FlowError::NotConfigured)?;
    let header = jsonwebtoken::decode_header(id_token).map_err(|_| FlowError::InvalidToken)?;
    if header.alg != Algorithm::RS256 {
        return Err(FlowError::InvalidToken);
    }
    let kid = header.kid.ok_or(FlowError::InvalidToken)?;
    let key = keys
        .key(&kid)
        .await
        .map_err(|_| FlowError::ExchangeFailed)?
        .ok_or(FlowError::InvalidToken)?;
    let mut validation = Validation::new(Algorithm::RS256);
    // The issuer is checked below: Microsoft's depends on the token's tenant.
    validation.set_audience(&[config.client_id.as_str()]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.leeway = 60;
    let claims = jsonwebtoken::decode::<Claims>(id_token, &key, &validation)
        .map_err(|err| {
            tracing::info!(error = %err, provider = provider.as_str(), "ID token refused");
            FlowError::InvalidToken
        })?
        .claims;
    if !issuer_matches(&config.issuer, &claims.iss, claims.tid.as_deref()) {
        tracing::info!(provider = provider.as_str(), "ID token from another issuer");
        return Err(FlowError::InvalidToken);
    }
    if !claims.nonce.as_deref().is_some_and(|n| tokens::same(n, nonce)) {
        return Err(FlowError::InvalidToken);
    }
    let email_vouched = match provider {
        Provider::Microsoft => claims.xms_edov.is_true(),
        _ => claims.email_verified.is_true(),
    };
    Ok(ProviderIdentity {
        provider,
        subject: claims.sub,
        email: claims.email,
        email_vouched,
        name: claims.name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tenant_issuer_must_name_the_tokens_own_tenant() {
        let configured = "https://login.example/{tid}/v2.0";
        assert!(issuer_matches(
            configured,
            "https://login.example/abc-123/v2.0",
            Some("abc-123")
        ));
        assert!(!issuer_matches(
            configured,
            "https://login.example/abc-123/v2.0",
            Some("other")
        ));
        assert!(!issuer_matches(
            configured,
            "https://login.example/abc-123/v2.0",
            None
        ));
        assert!(!issuer_matches(
            configured,
            "https://login.example/a/b/v2.0",
            Some("a/b")
        ));
        assert!(issuer_matches(
            "https://www.linkedin.com/oauth",
            "https://www.linkedin.com/oauth",
            None
        ));
        assert!(!issuer_matches(
            "https://www.linkedin.com/oauth",
            "https://evil.example",
            None
        ));
    }
}
