//! Who is calling, as handler arguments: the signed-in [`Viewer`] (or a 401 before the handler
//! runs) and the [`MaybeViewer`] of the routes anyone may call.

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::{
    accounts::sessions::{self, Viewer},
    error::Error,
    http::caller::session_token,
    http::error::ErrorResponse,
    state::AppState,
};

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ErrorResponse;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ErrorResponse> {
        let token = session_token(&parts.headers).ok_or_else(Error::session_expired)?;
        Ok(sessions::authenticate(state, &token).await?)
    }
}

/// The viewer when the request carries a live session; anonymous otherwise.
pub struct MaybeViewer(pub Option<Viewer>);

impl MaybeViewer {
    pub fn is_admin(&self) -> bool {
        self.0.as_ref().is_some_and(Viewer::is_admin)
    }
}

impl FromRequestParts<AppState> for MaybeViewer {
    type Rejection = ErrorResponse;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ErrorResponse> {
        let token = session_token(&parts.headers);
        Ok(Self(sessions::optional(state, token.as_deref()).await?))
    }
}
