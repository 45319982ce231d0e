//! Account queries and mutations.

use async_graphql::{Context, ID, Object};
use axum::http::header::SET_COOKIE;

use super::inputs::{
    ChangePasswordInput, ConfirmTwoFactorInput, DisableTwoFactorInput, ForgotPasswordInput, GoogleLoginInput,
    GoogleRegisterInput, LoginInput, MagicLinkInput, ReauthenticateInput, RegisterInput, ResetPasswordInput,
    SendOtpEmailInput, TwoFactorLoginInput, UpdateProfileInput, VerifyOtpEmailInput,
};
use super::{
    OneAuthOperation, context,
    errors::IntoGql,
    types::{
        GoogleSessionPayload, MagicLinkDetails, MessagePayload, RecoveryCodesPayload, Session,
        SessionPayload, SignInPayload, TwoFactorSetup, User, UserPayload,
    },
};
use crate::accounts::{
    cookie, deletion, email_code, login, magic_link, password_change, password_reset, profile,
    reauthenticate, register,
    sessions::{self, SignedIn},
    two_factor::{self, SignInStep},
};
use crate::google::sign_in as google;

#[derive(Default)]
pub struct AccountsQuery;

#[Object]
impl AccountsQuery {
    /// The email a sign-in link's token signs in to, without using it (the page shows it with
    /// its Continue; masked when two-factor is on). Public: the token is the secret.
    async fn magic_link(&self, ctx: &Context<'_>, token: String) -> async_graphql::Result<MagicLinkDetails> {
        let (state, _) = context(ctx);
        let email = magic_link::shown(state, &token).await.gql()?;
        Ok(MagicLinkDetails { email })
    }

    /// The signed-in account. UNAUTHENTICATED without a live session.
    async fn me(&self, ctx: &Context<'_>) -> async_graphql::Result<User> {
        let (state, meta) = context(ctx);
        Ok(meta.viewer(state).await.gql()?.user.into())
    }

    /// The signed-in account's live sessions, this one first (`current`).
    #[graphql(complexity = "super::limits::whole_list_cost(child_complexity)")]
    async fn sessions(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Session>> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        Ok(sessions::list(state, &viewer)
            .await
            .gql()?
            .into_iter()
            .map(Session::from)
            .collect())
    }
}

#[derive(Default)]
pub struct AccountsMutation;

pub(super) fn signed_in(ctx: &Context<'_>, signed_in: SignedIn, message: &str) -> SessionPayload {
    let (state, meta) = context(ctx);
    for value in cookie::for_sign_in(state, &meta.client, &signed_in) {
        ctx.append_http_header(SET_COOKIE, value);
    }
    SessionPayload {
        message: message.to_owned(),
        user: signed_in.user.into(),
        token: signed_in.token,
    }
}

/// The answer to a first factor: a session with its cookie, or the two-factor challenge.
pub(super) fn first_step(ctx: &Context<'_>, step: SignInStep, message: &str) -> SignInPayload {
    match step {
        SignInStep::Done(done) => {
            let payload = signed_in(ctx, *done, message);
            SignInPayload {
                message: payload.message,
                user: Some(payload.user),
                token: Some(payload.token),
                two_factor_required: false,
                challenge: None,
            }
        }
        SignInStep::TwoFactor { challenge } => SignInPayload {
            message: two_factor::CODE_REQUIRED_MESSAGE.to_owned(),
            user: None,
            token: None,
            two_factor_required: true,
            challenge: Some(challenge),
        },
    }
}

#[Object]
impl AccountsMutation {
    /// A new account, pending until its email is verified. Ask for a code next.
    #[graphql(guard = "OneAuthOperation")]
    async fn register(&self, ctx: &Context<'_>, input: RegisterInput) -> async_graphql::Result<UserPayload> {
        let (state, meta) = context(ctx);
        let user = register::register(state, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(UserPayload {
            message: register::REGISTERED.to_owned(),
            user: user.into(),
        })
    }

    /// Mails a verification code. The same answer for any well-formed email.
    #[graphql(guard = "OneAuthOperation")]
    async fn send_otp_email(
        &self,
        ctx: &Context<'_>,
        input: SendOtpEmailInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        email_code::send(state, input.into(), &meta.client).await.gql()?;
        Ok(MessagePayload::new(email_code::CODE_SENT))
    }

    /// Verifies the email with its code and signs in.
    #[graphql(guard = "OneAuthOperation")]
    async fn verify_otp_email(
        &self,
        ctx: &Context<'_>,
        input: VerifyOtpEmailInput,
    ) -> async_graphql::Result<SessionPayload> {
        let (state, meta) = context(ctx);
        let done = email_code::verify(state, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(signed_in(ctx, done, email_code::VERIFIED))
    }

    /// Signs in with email and password; with two-factor on, answers with a challenge instead.
    #[graphql(guard = "OneAuthOperation")]
    async fn login(&self, ctx: &Context<'_>, input: LoginInput) -> async_graphql::Result<SignInPayload> {
        let (state, meta) = context(ctx);
        let step = login::login(state, input.into(), &meta.client).await.gql()?;
        Ok(first_step(ctx, step, login::SIGNED_IN))
    }

    /// Completes a sign-in that asked for two-factor, with a code from the authenticator app
    /// or an unused recovery code.
    #[graphql(guard = "OneAuthOperation")]
    async fn complete_two_factor_login(
        &self,
        ctx: &Context<'_>,
        input: TwoFactorLoginInput,
    ) -> async_graphql::Result<SessionPayload> {
        let (state, meta) = context(ctx);
        let done = two_factor::complete(state, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(signed_in(ctx, done, login::SIGNED_IN))
    }

    /// Signs in with a Google ID token (or answers with a two-factor challenge). NOT_FOUND
    /// when no account has this Google email.
    #[graphql(guard = "OneAuthOperation")]
    async fn google_login(
        &self,
        ctx: &Context<'_>,
        input: GoogleLoginInput,
    ) -> async_graphql::Result<SignInPayload> {
        let (state, meta) = context(ctx);
        let step = google::login(state, input.into(), &meta.client).await.gql()?;
        Ok(first_step(ctx, step, login::SIGNED_IN))
    }

    /// Registers (active, email verified by Google) and signs in; signs in when the account exists.
    #[graphql(guard = "OneAuthOperation")]
    async fn google_register(
        &self,
        ctx: &Context<'_>,
        input: GoogleRegisterInput,
    ) -> async_graphql::Result<GoogleSessionPayload> {
        let (state, meta) = context(ctx);
        let done = google::register(state, input.into(), &meta.client).await.gql()?;
        let message = done.message();
        let payload = first_step(ctx, done.step, message);
        Ok(GoogleSessionPayload {
            message: payload.message,
            user: payload.user,
            token: payload.token,
            two_factor_required: payload.two_factor_required,
            challenge: payload.challenge,
            created: done.created,
        })
    }

    /// Ends this session (only this one) and clears the cookie. Safe to repeat.
    async fn logout(&self, ctx: &Context<'_>) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        sessions::sign_out(state, meta.token.as_deref(), &meta.client)
            .await
            .gql()?;
        ctx.append_http_header(SET_COOKIE, cookie::clear(&state.config));
        Ok(MessagePayload::new(sessions::SIGNED_OUT))
    }

    /// Mails a reset link when the account exists. The same answer either way.
    #[graphql(guard = "OneAuthOperation")]
    async fn forgot_password(
        &self,
        ctx: &Context<'_>,
        input: ForgotPasswordInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        password_reset::forgot(state, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(password_reset::LINK_SENT))
    }

    /// Mails a sign-in link when the account exists. The same answer either way.
    #[graphql(guard = "OneAuthOperation")]
    async fn request_magic_link(
        &self,
        ctx: &Context<'_>,
        input: MagicLinkInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        magic_link::request(state, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(magic_link::LINK_SENT))
    }

    /// Signs in with the token of a sign-in link, once (or answers with a two-factor
    /// challenge); the email counts as verified.
    #[graphql(guard = "OneAuthOperation")]
    async fn sign_in_with_magic_link(
        &self,
        ctx: &Context<'_>,
        token: String,
    ) -> async_graphql::Result<SignInPayload> {
        let (state, meta) = context(ctx);
        let step = magic_link::sign_in(state, &token, &meta.client).await.gql()?;
        Ok(first_step(ctx, step, login::SIGNED_IN))
    }

    /// Sets a new password with the token of a reset link; every session of the account ends.
    #[graphql(guard = "OneAuthOperation")]
    async fn reset_password(
        &self,
        ctx: &Context<'_>,
        token: String,
        input: ResetPasswordInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let set = password_reset::reset(state, &token, input.into(), &meta.client)
            .await
            .gql()?;
        ctx.append_http_header(SET_COOKIE, cookie::for_new_password(state, &meta.client, &set));
        Ok(MessagePayload::new(password_reset::RESET))
    }

    /// Changes the signed-in account's profile (not its email, role or status).
    async fn update_profile(
        &self,
        ctx: &Context<'_>,
        input: UpdateProfileInput,
    ) -> async_graphql::Result<UserPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let user = profile::update(&state.db, viewer, input.into()).await.gql()?;
        Ok(UserPayload {
            message: profile::UPDATED.to_owned(),
            user: user.into(),
        })
    }

    /// Sets a new password (the reset rule); every other session ends, this one stays.
    #[graphql(guard = "OneAuthOperation")]
    async fn change_password(
        &self,
        ctx: &Context<'_>,
        input: ChangePasswordInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let set = password_change::change(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        ctx.append_http_header(SET_COOKIE, cookie::for_new_password(state, &meta.client, &set));
        Ok(MessagePayload::new(password_change::CHANGED))
    }

    /// Starts two-factor enrolment: a new secret for the authenticator app, not yet in use.
    async fn start_two_factor_setup(&self, ctx: &Context<'_>) -> async_graphql::Result<TwoFactorSetup> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let enrolment = two_factor::start(state, &viewer).await.gql()?;
        Ok(TwoFactorSetup {
            secret: enrolment.secret,
            otpauth_uri: enrolment.otpauth_uri,
        })
    }

    /// Turns two-factor on with a first code from the app; answers with ten recovery codes,
    /// shown this once.
    #[graphql(guard = "OneAuthOperation")]
    async fn confirm_two_factor(
        &self,
        ctx: &Context<'_>,
        input: ConfirmTwoFactorInput,
    ) -> async_graphql::Result<RecoveryCodesPayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        let codes = two_factor::confirm(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(RecoveryCodesPayload {
            message: two_factor::ENABLED.to_owned(),
            recovery_codes: codes,
        })
    }

    /// Turns two-factor off with the password and a code (or a recovery code).
    #[graphql(guard = "OneAuthOperation")]
    async fn disable_two_factor(
        &self,
        ctx: &Context<'_>,
        input: DisableTwoFactorInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        two_factor::disable(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(two_factor::DISABLED))
    }

    /// Confirms it's you (the password, or a second-factor code) before a sensitive change:
    /// this session counts as freshly signed in for ten minutes.
    #[graphql(guard = "OneAuthOperation")]
    async fn reauthenticate(
        &self,
        ctx: &Context<'_>,
        input: ReauthenticateInput,
    ) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        reauthenticate::reauthenticate(state, &viewer, input.into(), &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(reauthenticate::CONFIRMED))
    }

    /// Signs out one of your sessions; its token is refused at once, on every instance.
    async fn revoke_session(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        // This very session, by its id, is a logout: the browser forgets the cookie too.
        if sessions::revoke(state, &viewer, &id, &meta.client).await.gql()? {
            ctx.append_http_header(SET_COOKIE, cookie::clear(&state.config));
        }
        Ok(MessagePayload::new(sessions::REVOKED))
    }

    /// Signs out every session but this one.
    async fn revoke_other_sessions(&self, ctx: &Context<'_>) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        sessions::revoke_others(state, &viewer, &meta.client)
            .await
            .gql()?;
        Ok(MessagePayload::new(sessions::OTHERS_REVOKED))
    }

    /// Deletes an account: your own, or any as an admin.
    async fn delete_user(&self, ctx: &Context<'_>, id: ID) -> async_graphql::Result<MessagePayload> {
        let (state, meta) = context(ctx);
        let viewer = meta.viewer(state).await.gql()?;
        deletion::delete(state, &viewer, &id, &meta.client).await.gql()?;
        if viewer.user.id.to_string() == id.as_str() {
            ctx.append_http_header(SET_COOKIE, cookie::clear(&state.config));
        }
        Ok(MessagePayload::new(deletion::DELETED))
    }
}
