//! The input objects of the schema and their conversion into the domain's forms. The REST
//! adapter deserialises the same forms from JSON, so both skins hand the domain one command.

use async_graphql::{InputObject, MaybeUndefined};

use crate::{
    accounts::{
        email_code::{SendCodeForm, VerifyCodeForm},
        login::LoginForm,
        magic_link::MagicLinkForm,
        password_change::ChangePasswordForm,
        password_reset::{ForgotForm, ResetForm},
        profile::{AddressForm, NotificationsForm, PreferencesForm, ProfileForm, SocialForm},
        reauthenticate::ReauthenticateForm,
        register::RegisterForm,
        two_factor::{ChallengeForm, ConfirmForm, DisableForm},
    },
    google::sign_in::{GoogleLoginForm, GoogleRegisterForm},
    news::{NewsForm, NewsPatch},
    organizations::{CreateForm, UpdateForm, invitations::InviteForm},
    patch::Patch,
};

impl<T> From<MaybeUndefined<T>> for Patch<T> {
    fn from(value: MaybeUndefined<T>) -> Self {
        match value {
            MaybeUndefined::Undefined => Self::Unchanged,
            MaybeUndefined::Null => Self::Clear,
            MaybeUndefined::Value(value) => Self::Set(value),
        }
    }
}

/// An input object whose fields are the form's, one to one.
macro_rules! input {
    ($(#[$meta:meta])* $name:ident => $form:ident { $($(#[doc = $doc:literal])* $field:ident: $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Default, InputObject)]
        pub struct $name {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        #[allow(clippy::useless_conversion)]
        impl From<$name> for $form {
            fn from(input: $name) -> Self {
                Self { $($field: input.$field.into(),)* }
            }
        }
    };
}

input!(
    /// What the register screen sends, unchecked.
    RegisterInput => RegisterForm {
        name: Option<String>,
        email: Option<String>,
        country_code: Option<String>,
        /// The country code joined with the digits, or the digits alone.
        phone: Option<String>,
        password: Option<String>,
        /// career, campus or hire.
        role: Option<String>,
    }
);
input!(SendOtpEmailInput => SendCodeForm { email: Option<String> });
input!(VerifyOtpEmailInput => VerifyCodeForm { email: Option<String>, otp: Option<String> });
input!(LoginInput => LoginForm { email: Option<String>, password: Option<String> });
input!(
    TwoFactorLoginInput => ChallengeForm {
        challenge: Option<String>,
        /// A six-digit code from the authenticator app, or an unused recovery code.
        code: Option<String>,
    }
);
input!(GoogleLoginInput => GoogleLoginForm { id_token: Option<String> });
input!(
    GoogleRegisterInput => GoogleRegisterForm {
        id_token: Option<String>,
        /// career, campus or hire.
        role: Option<String>,
    }
);
input!(ForgotPasswordInput => ForgotForm { email: Option<String> });
input!(
    MagicLinkInput => MagicLinkForm {
        email: Option<String>,
        /// A page of this site to open once signed in (such as /security); the link carries it.
        redirect: Option<String>,
    }
);
input!(ResetPasswordInput => ResetForm { password: Option<String> });
input!(
    ChangePasswordInput => ChangePasswordForm {
        /// Not needed by an account that has none yet (made with Google).
        current_password: Option<String>,
        password: Option<String>,
        confirm_password: Option<String>,
    }
);
input!(ConfirmTwoFactorInput => ConfirmForm { code: Option<String> });
input!(
    DisableTwoFactorInput => DisableForm {
        /// Not needed by an account that has no password (made with Google).
        password: Option<String>,
        /// A code from the authenticator app, or an unused recovery code.
        code: Option<String>,
    }
);
input!(
    ReauthenticateInput => ReauthenticateForm {
        /// The account's password (when it has one).
        password: Option<String>,
        /// A code from the authenticator app or an unused recovery code (when two-factor is on).
        code: Option<String>,
    }
);
input!(
    SocialInput => SocialForm {
        github: MaybeUndefined<String>,
        linkedin: MaybeUndefined<String>,
        instagram: MaybeUndefined<String>,
        twitter: MaybeUndefined<String>,
        facebook: MaybeUndefined<String>,
    }
);
input!(
    AddressInput => AddressForm {
        street: MaybeUndefined<String>,
        city: MaybeUndefined<String>,
        state: MaybeUndefined<String>,
        zip: MaybeUndefined<String>,
        country: MaybeUndefined<String>,
    }
);
input!(NotificationsInput => NotificationsForm { email: Option<bool>, sms: Option<bool>, push: Option<bool> });

#[derive(Debug, Default, InputObject)]
pub struct PreferencesInput {
    pub notifications: Option<NotificationsInput>,
    /// light or dark.
    pub theme: Option<String>,
}

impl From<PreferencesInput> for PreferencesForm {
    fn from(input: PreferencesInput) -> Self {
        Self {
            notifications: input.notifications.map(Into::into),
            theme: input.theme,
        }
    }
}

/// A partial update: a field left out stays as it is; `null` clears an optional field.
#[derive(Debug, Default, InputObject)]
pub struct UpdateProfileInput {
    pub name: Option<String>,
    pub country_code: Option<String>,
    pub phone: Option<String>,
    pub bio: MaybeUndefined<String>,
    /// An http(s) URL.
    pub website: MaybeUndefined<String>,
    /// A past date, `YYYY-MM-DD`.
    pub born: MaybeUndefined<String>,
    pub social: Option<SocialInput>,
    pub address: Option<AddressInput>,
    pub preferences: Option<PreferencesInput>,
}

impl From<UpdateProfileInput> for ProfileForm {
    fn from(input: UpdateProfileInput) -> Self {
        Self {
            name: input.name,
            country_code: input.country_code,
            phone: input.phone,
            bio: input.bio.into(),
            website: input.website.into(),
            born: input.born.into(),
            social: input.social.map(Into::into),
            address: input.address.map(Into::into),
            preferences: input.preferences.map(Into::into),
        }
    }
}

input!(
    CreateNewsInput => NewsForm {
        title: Option<String>,
        summary: Option<String>,
        body: Option<String>,
        /// An http(s) URL, or null.
        image_url: Option<String>,
        /// Drafts (the default) are visible to admins only.
        published: Option<bool>,
    }
);
input!(
    /// A partial update: a field left out stays as it is.
    UpdateNewsInput => NewsPatch {
        title: MaybeUndefined<String>,
        summary: MaybeUndefined<String>,
        body: MaybeUndefined<String>,
        image_url: MaybeUndefined<String>,
        published: Option<bool>,
    }
);
input!(
    /// A new organization; the slug is made from the name when left out.
    CreateOrganizationInput => CreateForm {
        name: Option<String>,
        /// Lowercase letters, digits and hyphens (3-40).
        slug: Option<String>,
    }
);
input!(
    /// A partial update: a field left out stays as it is.
    UpdateOrganizationInput => UpdateForm {
        name: Option<String>,
        slug: Option<String>,
        /// Site admins only; null is unlimited.
        seat_limit: MaybeUndefined<i32>,
    }
);
input!(
    /// Who to invite, and as what.
    InviteInput => InviteForm {
        /// 1 to 500 addresses.
        emails: Option<Vec<String>>,
        /// member (the default), admin, or owner (owners only).
        role: Option<String>,
    }
);
