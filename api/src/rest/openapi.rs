//! `GET /api/openapi.json`: the REST adapter described in OpenAPI 3.1, for integrators and
//! for tools such as schemathesis. A test checks that it lists exactly the adapter's routes.

use std::sync::LazyLock;

use axum::Json;
use serde_json::{Value, json};

static DOCUMENT: LazyLock<Value> = LazyLock::new(|| with_common_answers(document()));

pub async fn serve() -> Json<Value> {
    Json(DOCUMENT.clone())
}

fn string() -> Value {
    json!({ "type": "string" })
}

fn nullable_string() -> Value {
    json!({ "type": ["string", "null"] })
}

fn object(properties: &[(&str, Value)], required: &[&str]) -> Value {
    let props: serde_json::Map<String, Value> = properties
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    json!({ "type": "object", "properties": props, "required": required })
}

fn body(schema: Value) -> Value {
    json!({ "required": true, "content": { "application/json": { "schema": schema } } })
}

/// A success envelope carrying `data` of this schema (or no data).
fn ok(description: &str, data: Option<Value>) -> Value {
    let mut props = vec![("success", json!({ "const": true })), ("message", string())];
    if let Some(data) = data {
        props.push(("data", data));
    }
    json!({ "description": description, "content": { "application/json": { "schema": object(&props, &["success"]) } } })
}

fn error(description: &str) -> Value {
    json!({ "description": description, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
}

fn responses(success: (&str, Value), errors: &[(&str, &str)]) -> Value {
    let mut map = serde_json::Map::new();
    map.insert(success.0.to_owned(), success.1);
    for (status, description) in errors {
        map.insert((*status).to_owned(), error(description));
    }
    Value::Object(map)
}

fn user_data() -> Value {
    object(
        &[("user", json!({ "$ref": "#/components/schemas/User" }))],
        &["user"],
    )
}

/// A first sign-in step: a session, or the two-factor challenge.
fn sign_in_data() -> Value {
    json!({ "oneOf": [
        session_data(),
        object(
            &[
                ("twoFactorRequired", json!({ "const": true })),
                ("challenge", string()),
            ],
            &["twoFactorRequired", "challenge"],
        ),
    ] })
}

fn session_data() -> Value {
    object(
        &[
            ("user", json!({ "$ref": "#/components/schemas/User" })),
            ("token", string()),
        ],
        &["user", "token"],
    )
}

fn item_data() -> Value {
    object(
        &[("item", json!({ "$ref": "#/components/schemas/NewsItem" }))],
        &["item"],
    )
}

/// The answers every route can give besides its own: the per-address limit (429) and an
/// unreachable database or a full hashing queue (503) anywhere; a malformed body (400), one
/// over 64 KiB (413), one that is not JSON (415) and a cookie write from another site (403) on
/// every write.
fn with_common_answers(mut document: Value) -> Value {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return document;
    };
    for operations in paths.values_mut().filter_map(Value::as_object_mut) {
        for (method, operation) in operations.iter_mut() {
            let write = matches!(method.as_str(), "post" | "put" | "delete");
            let Some(answers) = operation.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            let mut add = |status: &str, description: &str| {
                answers
                    .entry(status.to_owned())
                    .or_insert_with(|| error(description));
            };
            add("429", "Too many requests (Retry-After)");
            add(
                "503",
                "The database is unreachable or the service is busy (Retry-After)",
            );
            if write {
                add("400", "The body is not a JSON object of the expected shape");
                add("403", "Cross-site request refused");
                add("413", "The request body is too large (64 KiB at most)");
                add(
                    "415",
                    "Request bodies must be JSON (Content-Type: application/json)",
                );
            }
        }
    }
    document
}

fn path_param(name: &str) -> Value {
    json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } })
}

fn document() -> Value {
    let email = object(&[("email", string())], &["email"]);
    let news_fields = object(
        &[
            ("title", json!({ "type": "string", "maxLength": 200 })),
            ("summary", json!({ "type": "string", "maxLength": 500 })),
            ("body", json!({ "type": "string", "maxLength": 20000 })),
            ("imageUrl", nullable_string()),
            ("published", json!({ "type": "boolean" })),
        ],
        &[],
    );
    let bearer = json!([{ "bearer": [] }, { "cookie": [] }]);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Talent Suite REST API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Every body is an envelope: {success, message, data} or {success: false, message, code, errors}. The same operations are available in GraphQL at /api/graphql."
        },
        "servers": [{ "url": "/api" }],
        "paths": {
            "/auth/register": { "post": {
                "summary": "Register an account (pending until its email is verified)",
                "requestBody": body(object(&[("name", string()), ("email", string()), ("countryCode", string()), ("phone", string()), ("password", string()), ("role", json!({ "enum": ["career", "campus", "hire"] }))], &["name", "email", "countryCode", "phone", "password", "role"])),
                "responses": responses(("201", ok("Registered successfully", Some(user_data()))), &[("400", "Field errors"), ("409", "An account with this email already exists")])
            }},
            "/auth/send-otp-email": { "post": {
                "summary": "Mail a verification code",
                "requestBody": body(email.clone()),
                "responses": responses(("200", ok("OTP sent to your email", None)), &[("400", "Field errors"), ("429", "Within the 60 s cooldown (Retry-After)")])
            }},
            "/auth/verify-otp-email": { "post": {
                "summary": "Verify the email with its code and sign in",
                "requestBody": body(object(&[("email", string()), ("otp", string())], &["email", "otp"])),
                "responses": responses(("200", ok("Email verified successfully!", Some(session_data()))), &[("400", "Invalid OTP"), ("410", "OTP expired. Please request a new one."), ("429", "Too many wrong codes")])
            }},
            "/auth/login": { "post": {
                "summary": "Sign in with email and password",
                "requestBody": body(object(&[("email", string()), ("password", string())], &["email", "password"])),
                "responses": responses(("200", ok("Logged in successfully", Some(sign_in_data()))), &[("400", "Field errors"), ("401", "Invalid email or password"), ("403", "Please verify your email before signing in"), ("429", "Too many failed sign-in attempts")])
            }},
            "/auth/login/two-factor": { "post": {
                "summary": "Complete a sign-in that asked for two-factor, with an authenticator code or an unused recovery code",
                "requestBody": body(object(&[("challenge", string()), ("code", string())], &["challenge", "code"])),
                "responses": responses(("200", ok("Logged in successfully", Some(session_data()))), &[("400", "Invalid code, or field errors"), ("410", "The challenge is unknown, used or expired"), ("429", "Too many wrong codes, or too many failed sign-in attempts")])
            }},
            "/auth/google-login": { "post": {
                "summary": "Sign in with a Google ID token",
                "requestBody": body(object(&[("idToken", string())], &["idToken"])),
                "responses": responses(("200", ok("Logged in successfully", Some(sign_in_data()))), &[("401", "Invalid Google token"), ("404", "No account found for this Google email. Please register first.")])
            }},
            "/auth/google-register": { "post": {
                "summary": "Register with a Google ID token (or sign in when the account exists: 200)",
                "requestBody": body(object(&[("idToken", string()), ("role", json!({ "enum": ["career", "campus", "hire"] }))], &["idToken", "role"])),
                "responses": responses(("201", ok("Registered successfully", Some(sign_in_data()))), &[("400", "Bad role"), ("401", "Invalid Google token")])
            }},
            "/auth/logout": { "post": {
                "summary": "End this session and clear the cookie (idempotent)",
                "responses": responses(("200", ok("Logged out successfully", None)), &[])
            }},
            "/auth/verify": { "get": {
                "summary": "The signed-in account",
                "security": bearer,
                "responses": responses(("200", ok("Signed in", Some(user_data()))), &[("401", "Session expired or unauthorized")])
            }},
            "/auth/forgot-password": { "post": {
                "summary": "Mail a reset link when the account exists (same answer either way)",
                "requestBody": body(email),
                "responses": responses(("200", ok("If an account exists for this email, a reset link has been sent.", None)), &[("400", "Field errors"), ("429", "Too many requests for this email")])
            }},
            "/auth/reset-password/{token}": { "post": {
                "summary": "Set a new password with a reset link's token; every session ends",
                "parameters": [path_param("token")],
                "requestBody": body(object(&[("password", string())], &["password"])),
                "responses": responses(("200", ok("Password reset successfully", None)), &[("400", "Reset link is invalid, or the password rule"), ("410", "Reset link has expired")])
            }},
            "/users/profile": {
                "get": {
                    "summary": "The signed-in account's profile",
                    "security": bearer,
                    "responses": responses(("200", ok("The profile", Some(user_data()))), &[("401", "Session expired or unauthorized")])
                },
                "put": {
                    "summary": "Change the profile (not email, role or status); fields left out stay",
                    "security": bearer,
                    "requestBody": body(json!({ "$ref": "#/components/schemas/ProfileUpdate" })),
                    "responses": responses(("200", ok("Profile updated", Some(user_data()))), &[("400", "Field errors"), ("401", "Session expired or unauthorized")])
                }
            },
            "/users/password": { "put": {
                "summary": "Change the password (the reset rule); every other session ends, this one stays",
                "security": bearer,
                "requestBody": body(object(&[("currentPassword", string()), ("password", string()), ("confirmPassword", string())], &["password", "confirmPassword"])),
                "responses": responses(("200", ok("Password changed", None)), &[("400", "Field errors, or Current password is incorrect"), ("401", "Session expired or unauthorized"), ("403", "REAUTHENTICATION_REQUIRED: a first password needs a recent sign-in"), ("429", "Too many failed sign-in attempts")])
            }},
            "/users/sessions": {
                "get": {
                    "summary": "The signed-in account's live sessions, this one first",
                    "security": bearer,
                    "responses": responses(("200", ok("The sessions", Some(object(&[("sessions", json!({ "type": "array", "items": { "$ref": "#/components/schemas/Session" } }))], &["sessions"])))), &[("401", "Session expired or unauthorized")])
                },
                "delete": {
                    "summary": "Sign out every session but this one",
                    "security": bearer,
                    "responses": responses(("200", ok("Other sessions signed out", None)), &[("401", "Session expired or unauthorized")])
                }
            },
            "/users/sessions/{id}": { "delete": {
                "summary": "Sign out one session; its token is refused at once",
                "security": bearer,
                "parameters": [path_param("id")],
                "responses": responses(("200", ok("Session signed out", None)), &[("401", "Session expired or unauthorized"), ("404", "Session not found")])
            }},
            "/users/two-factor/setup": { "post": {
                "summary": "Start two-factor enrolment: a new secret for the authenticator app",
                "security": bearer,
                "responses": responses(("200", ok("The secret", Some(object(&[("setup", object(&[("secret", string()), ("otpauthUri", string())], &["secret", "otpauthUri"]))], &["setup"])))), &[("401", "Session expired or unauthorized"), ("403", "REAUTHENTICATION_REQUIRED: confirm it's you first"), ("409", "Two-factor sign-in is already on")])
            }},
            "/users/two-factor/confirm": { "post": {
                "summary": "Turn two-factor on with a first code; answers with ten recovery codes, shown once",
                "security": bearer,
                "requestBody": body(object(&[("code", string())], &["code"])),
                "responses": responses(("200", ok("Two-factor sign-in is on", Some(object(&[("recoveryCodes", json!({ "type": "array", "items": string() }))], &["recoveryCodes"])))), &[("400", "Invalid code, or setup not started"), ("401", "Session expired or unauthorized"), ("409", "Two-factor sign-in is already on"), ("429", "Too many failed sign-in attempts")])
            }},
            "/users/two-factor/disable": { "post": {
                "summary": "Turn two-factor off with the password and a code",
                "security": bearer,
                "requestBody": body(object(&[("password", string()), ("code", string())], &["code"])),
                "responses": responses(("200", ok("Two-factor sign-in is off", None)), &[("400", "Field errors, or two-factor is not on"), ("401", "Session expired or unauthorized"), ("403", "REAUTHENTICATION_REQUIRED: confirm it's you first"), ("429", "Too many failed sign-in attempts")])
            }},
            "/auth/reauthenticate": { "post": {
                "summary": "Confirm it's you (password or second-factor code) before a sensitive change",
                "security": bearer,
                "requestBody": body(object(&[("password", string()), ("code", string())], &[])),
                "responses": responses(("200", ok("Thanks, it's you", None)), &[("400", "Field errors"), ("401", "Session expired or unauthorized"), ("429", "Too many failed attempts")])
            }},
            "/users/{id}": { "delete": {
                "summary": "Delete an account: your own, or any as an admin",
                "security": bearer,
                "parameters": [path_param("id")],
                "responses": responses(("200", ok("Account deleted", None)), &[("401", "Not signed in"), ("403", "Not yours, or REAUTHENTICATION_REQUIRED: confirm it's you first"), ("404", "User not found")])
            }},
            "/news": {
                "get": {
                    "summary": "Published news, newest first (drafts too for admins)",
                    "parameters": [
                        { "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": 50, "default": 20 } },
                        { "name": "cursor", "in": "query", "schema": { "type": "string" } }
                    ],
                    "responses": responses(("200", ok("A page", Some(object(&[("items", json!({ "type": "array", "items": { "$ref": "#/components/schemas/NewsItem" } })), ("nextCursor", nullable_string())], &["items", "nextCursor"])))), &[("400", "Bad limit or cursor")])
                },
                "post": {
                    "summary": "Create a news item (admins)",
                    "security": bearer,
                    "requestBody": body(news_fields.clone()),
                    "responses": responses(("201", ok("News item created", Some(item_data()))), &[("400", "Field errors"), ("401", "Not signed in"), ("403", "Only admins can manage news")])
                }
            },
            "/news/{id}": {
                "get": {
                    "summary": "One news item",
                    "parameters": [path_param("id")],
                    "responses": responses(("200", ok("The item", Some(item_data()))), &[("404", "News item not found")])
                },
                "put": {
                    "summary": "Change a news item (admins); fields left out stay",
                    "security": bearer,
                    "parameters": [path_param("id")],
                    "requestBody": body(news_fields),
                    "responses": responses(("200", ok("News item updated", Some(item_data()))), &[("400", "Field errors"), ("401", "Not signed in"), ("403", "Only admins can manage news"), ("404", "News item not found")])
                },
                "delete": {
                    "summary": "Delete a news item (admins)",
                    "security": bearer,
                    "parameters": [path_param("id")],
                    "responses": responses(("200", ok("News item deleted", None)), &[("401", "Not signed in"), ("403", "Only admins can manage news"), ("404", "News item not found")])
                }
            }
        },
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": crate::accounts::cookie::NAME }
            },
            "schemas": {
                "Error": object(&[
                    ("success", json!({ "const": false })),
                    ("message", string()),
                    ("code", json!({ "enum": ["BAD_USER_INPUT", "UNAUTHENTICATED", "EMAIL_NOT_VERIFIED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "TOKEN_EXPIRED", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "INTERNAL", "UNAVAILABLE"] })),
                    ("errors", json!({ "type": "object", "additionalProperties": { "type": "string" } })),
                ], &["success", "message", "code"]),
                "User": object(&[
                    ("id", json!({ "type": "string", "format": "uuid" })),
                    ("name", string()), ("email", string()), ("countryCode", string()), ("phone", string()),
                    ("bio", nullable_string()), ("website", nullable_string()),
                    ("born", json!({ "type": ["string", "null"], "format": "date" })),
                    ("role", json!({ "enum": ["career", "campus", "hire", "admin"] })),
                    ("status", json!({ "enum": ["pending", "active", "suspended"] })),
                    ("emailVerified", json!({ "type": "boolean" })), ("twoFactorEnabled", json!({ "type": "boolean" })),
                    ("social", object(&[("github", nullable_string()), ("linkedin", nullable_string()), ("instagram", nullable_string()), ("twitter", nullable_string()), ("facebook", nullable_string())], &[])),
                    ("address", object(&[("street", nullable_string()), ("city", nullable_string()), ("state", nullable_string()), ("zip", nullable_string()), ("country", nullable_string())], &[])),
                    ("preferences", object(&[("notifications", object(&[("email", json!({ "type": "boolean" })), ("sms", json!({ "type": "boolean" })), ("push", json!({ "type": "boolean" }))], &[])), ("theme", json!({ "enum": ["light", "dark"] }))], &[])),
                    ("createdAt", json!({ "type": "string", "format": "date-time" })),
                    ("updatedAt", json!({ "type": "string", "format": "date-time" })),
                ], &["id", "name", "email", "role", "status"]),
                "ProfileUpdate": object(&[
                    ("name", string()), ("countryCode", string()), ("phone", string()),
                    ("bio", nullable_string()), ("website", nullable_string()),
                    ("born", json!({ "type": ["string", "null"], "format": "date" })),
                    ("social", json!({ "type": "object" })), ("address", json!({ "type": "object" })), ("preferences", json!({ "type": "object" })),
                ], &[]),
                "Session": object(&[
                    ("id", string()),
                    ("browser", string()),
                    ("os", string()),
                    ("ip", nullable_string()),
                    ("signedInAt", string()),
                    ("lastActiveAt", string()),
                    ("current", json!({ "type": "boolean" })),
                ], &["id", "browser", "os", "ip", "signedInAt", "lastActiveAt", "current"]),
                "NewsItem": object(&[
                    ("id", json!({ "type": "string", "format": "uuid" })),
                    ("title", string()), ("summary", string()), ("body", string()),
                    ("imageUrl", nullable_string()), ("published", json!({ "type": "boolean" })),
                    ("publishedAt", json!({ "type": ["string", "null"], "format": "date-time" })),
                    ("author", json!({ "type": ["object", "null"], "properties": { "id": string(), "name": string() } })),
                    ("createdAt", json!({ "type": "string", "format": "date-time" })),
                    ("updatedAt", json!({ "type": "string", "format": "date-time" })),
                ], &["id", "title", "summary", "body", "published"]),
            }
        }
    })
}
