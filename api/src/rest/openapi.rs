//! `GET /api/openapi.json`: the REST adapter described in OpenAPI 3.1, for integrators and
//! for tools such as schemathesis. Each route's [`Operation`] sits beside its handler in its
//! feature's table ([`super::routes::Routes`]); this module has the pieces they are written
//! with and the document's common parts.

use serde_json::{Map, Value, json};

use crate::{accounts::fields::MAX_PASSWORD, http::error::BODY_TOO_LARGE};

/// One route's entry: its summary, body, parameters, security and answers.
#[must_use]
pub struct Operation(Map<String, Value>);

/// A route's entry, starting with what it does.
pub fn operation(summary: &str) -> Operation {
    let mut fields = Map::new();
    fields.insert("summary".to_owned(), Value::from(summary));
    Operation(fields)
}

impl Operation {
    /// The JSON body it reads.
    pub fn body(mut self, schema: Value) -> Self {
        self.0.insert(
            "requestBody".to_owned(),
            json!({ "required": true, "content": { "application/json": { "schema": schema } } }),
        );
        self
    }

    /// A JSON body whose fields are all optional, which may also be left out (it changes nothing).
    pub fn optional_body(mut self, schema: Value) -> Self {
        self.0.insert(
            "requestBody".to_owned(),
            json!({ "required": false, "content": { "application/json": { "schema": schema } } }),
        );
        self
    }

    /// It needs a session: the bearer token or the cookie.
    pub fn signed_in(mut self) -> Self {
        self.0
            .insert("security".to_owned(), json!([{ "bearer": [] }, { "cookie": [] }]));
        self
    }

    /// A `{name}` segment of its path.
    pub fn path_param(self, name: &str) -> Self {
        self.path_param_of(name, json!({ "type": "string" }))
    }

    /// A `{name}` segment of its path that is an id (a UUID).
    pub fn id_param(self, name: &str) -> Self {
        self.path_param_of(name, json!({ "type": "string", "format": "uuid" }))
    }

    /// A `{name}` segment of its path that is a token this server issued.
    pub fn token_param(self, name: &str) -> Self {
        self.path_param_of(name, secret())
    }

    /// A `{name}` segment of its path, of this schema.
    pub fn path_param_of(self, name: &str, schema: Value) -> Self {
        self.param(json!({ "name": name, "in": "path", "required": true, "schema": schema }))
    }

    /// A parameter of any kind (a query string's).
    pub fn param(mut self, param: Value) -> Self {
        let params = self
            .0
            .entry("parameters")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(params) = params {
            params.push(param);
        }
        self
    }

    /// An optional parameter of the query string.
    pub fn query_param(self, name: &str, description: &str) -> Self {
        self.query_param_of(name, description, string())
    }

    /// An optional parameter of the query string, of this schema.
    pub fn query_param_of(self, name: &str, description: &str, schema: Value) -> Self {
        self.param(json!({ "name": name, "in": "query", "required": false, "description": description, "schema": schema }))
    }

    /// Its success (status and envelope) and the failures particular to it.
    pub fn answers(mut self, success: (&str, Value), errors: &[(&str, &str)]) -> Self {
        let mut map = Map::new();
        map.insert(success.0.to_owned(), success.1);
        for (status, description) in errors {
            map.insert((*status).to_owned(), error(description));
        }
        self.0.insert("responses".to_owned(), Value::Object(map));
        self
    }

    pub(super) fn into_value(self) -> Value {
        Value::Object(self.0)
    }
}

pub fn string() -> Value {
    json!({ "type": "string" })
}

/// A field the server trims: something besides spaces, at most `max` characters.
pub fn text(max: usize) -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": max, "pattern": "\\S" })
}

/// The Unicode control characters (Cc, what `char::is_control` finds), as a pattern's range.
const CONTROL: &str = "\\x00-\\x1f\\x7f-\\x9f";

/// What a name may not hold besides: the characters that are not seen but change what is
/// (`crate::accounts::fields::is_hidden_or_control`).
const HIDDEN: &str = "\\xad\\u180e\\u200b\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff";

/// A name the server trims and refuses with a control or hidden character in it: something
/// besides white space, at most `max` characters.
pub fn name(max: usize) -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": max,
        "pattern": format!("^[^{CONTROL}{HIDDEN}]*[^\\s{CONTROL}{HIDDEN}][^{CONTROL}{HIDDEN}]*$") })
}

/// The control characters but line breaks and tabs, as a pattern's range: what prose may not
/// hold (`crate::accounts::fields::has_stray_control`).
const STRAY: &str = "\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f";

/// Required prose the server trims (a post's title, summary and body, a reason): something
/// besides white space, at most `max` characters, no control character but line breaks and
/// tabs.
pub fn prose(max: usize) -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": max,
        "pattern": format!("^[^{STRAY}]*[^\\s{STRAY}][^{STRAY}]*$") })
}

/// Free text the server trims, at most `max` characters, or null: line breaks and tabs are
/// kept, other control characters refused.
pub fn free_text(max: usize) -> Value {
    json!({ "type": ["string", "null"], "maxLength": max,
        "pattern": format!("^[^{STRAY}]*$") })
}

/// A search the server trims: at most `max` characters, none of them a control character.
pub fn search(max: usize) -> Value {
    json!({ "type": "string", "maxLength": max, "pattern": format!("^[^{CONTROL}]*$") })
}

/// A name as [`name`], which may be left blank (the server then gives a default one).
pub fn optional_name(max: usize) -> Value {
    json!({ "type": "string", "maxLength": max, "pattern": format!("^[^{CONTROL}{HIDDEN}]*$") })
}

/// `schema`, or null.
pub fn or_null(mut schema: Value) -> Value {
    if let Some(kind) = schema.get_mut("type")
        && let Value::String(name) = kind.clone()
    {
        *kind = json!([name, "null"]);
    }
    schema
}

/// A plain email address, as registration reads it (trimmed, at most 255 characters).
pub fn email() -> Value {
    json!({ "type": "string", "format": "email", "maxLength": 255 })
}

/// Something this server issued (a code, a link's token, a challenge, a ticket): present and
/// of a size it issues. Whether it is right, only the server knows (400, 401 or 410).
pub fn secret() -> Value {
    json!({ "type": "string", "minLength": 1, "maxLength": 512, "pattern": "\\S" })
}

/// A password at sign-in or confirmation: present; the hash decides the rest.
pub fn password() -> Value {
    json!({ "type": "string", "minLength": 1 })
}

/// A new password by registration's rule (the most common passwords are refused too).
pub fn new_password() -> Value {
    json!({ "type": "string", "minLength": 6, "maxLength": MAX_PASSWORD })
}

/// A new password by the reset rule: 6-255 of letters, digits and @$!%*?&, a letter and a digit.
pub fn reset_rule_password() -> Value {
    json!({ "type": "string", "minLength": 6, "maxLength": MAX_PASSWORD, "pattern": "^[A-Za-z0-9@$!%*?&]+$",
        "allOf": [{ "pattern": "[A-Za-z]" }, { "pattern": "[0-9]" }] })
}

/// A query string's `limit`: a whole number from 1 to `max`.
pub fn limit_param(default: u32, max: u32) -> Value {
    json!({ "name": "limit", "in": "query", "schema": { "type": "integer", "minimum": 1, "maximum": max, "default": default } })
}

/// A query string's `cursor`: the `nextCursor` of the page before (URL-safe base64; empty or
/// absent for the first page).
pub fn cursor_param() -> Value {
    json!({ "name": "cursor", "in": "query", "schema": { "type": "string", "pattern": "^[A-Za-z0-9_-]*$", "maxLength": 1024 } })
}

pub fn nullable_string() -> Value {
    json!({ "type": ["string", "null"] })
}

pub fn object(properties: &[(&str, Value)], required: &[&str]) -> Value {
    let props: serde_json::Map<String, Value> = properties
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    json!({ "type": "object", "properties": props, "required": required })
}

/// A success envelope carrying `data` of this schema (or no data).
pub fn ok(description: &str, data: Option<Value>) -> Value {
    let mut props = vec![("success", json!({ "const": true })), ("message", string())];
    if let Some(data) = data {
        props.push(("data", data));
    }
    json!({ "description": description, "content": { "application/json": { "schema": object(&props, &["success"]) } } })
}

fn error(description: &str) -> Value {
    json!({ "description": description, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
}

pub fn user_data() -> Value {
    object(
        &[("user", json!({ "$ref": "#/components/schemas/User" }))],
        &["user"],
    )
}

/// A first sign-in step: a session, or the two-factor challenge.
pub fn sign_in_data() -> Value {
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

pub fn session_data() -> Value {
    object(
        &[
            ("user", json!({ "$ref": "#/components/schemas/User" })),
            ("token", string()),
        ],
        &["user", "token"],
    )
}

pub fn item_data() -> Value {
    object(
        &[("item", json!({ "$ref": "#/components/schemas/NewsItem" }))],
        &["item"],
    )
}

/// The answers every route can give besides its own: the per-address limit (429) and an
/// unreachable database or a full hashing queue (503) anywhere; a malformed body (400), one
/// over 64 KiB (413), one that is not JSON (415), a cookie write from another site (403) and
/// a write that refers to a row deleted while it ran (409) on every write.
fn with_common_answers(paths: &mut Map<String, Value>) {
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
                add("409", "This account or record was deleted while the request ran");
                add("413", BODY_TOO_LARGE);
                add(
                    "415",
                    "Request bodies must be JSON (Content-Type: application/json)",
                );
            }
        }
    }
}

/// An invitation, with `extra` fields (where it leads, as its link shows it).
fn invitation(extra: &[(&str, Value)]) -> Value {
    let mut fields = vec![
        ("id", json!({ "type": "string", "format": "uuid" })),
        ("email", string()),
        ("role", json!({ "enum": ["owner", "admin", "member"] })),
        (
            "status",
            json!({ "enum": ["pending", "accepted", "revoked", "expired"] }),
        ),
        ("expiresAt", json!({ "type": "string", "format": "date-time" })),
        (
            "invitedBy",
            json!({ "type": ["object", "null"], "properties": { "id": string(), "name": string() } }),
        ),
        ("createdAt", json!({ "type": "string", "format": "date-time" })),
    ];
    fields.extend(extra.iter().cloned());
    let required: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    object(&fields, &required)
}

/// The whole document, around the features' `paths`.
pub fn document(mut paths: Map<String, Value>) -> Value {
    with_common_answers(&mut paths);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Talent Suite REST API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Every body is an envelope: {success, message, data} or {success: false, message, code, errors}. The same operations are available in GraphQL at /api/graphql."
        },
        "servers": [{ "url": super::PREFIX }],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
                "cookie": { "type": "apiKey", "in": "cookie", "name": crate::accounts::cookie::NAME }
            },
            "schemas": {
                "Error": object(&[
                    ("success", json!({ "const": false })),
                    ("message", string()),
                    ("code", json!({ "enum": ["BAD_USER_INPUT", "UNAUTHENTICATED", "EMAIL_NOT_VERIFIED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "TOKEN_EXPIRED", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "INTERNAL", "UNAVAILABLE", "UNSUPPORTED_MEDIA_TYPE", "REAUTHENTICATION_REQUIRED"] })),
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
                // Every field may be left out or null: either way it stays as it is.
                "ProfileUpdate": object(&[
                    ("name", or_null(name(100))),
                    ("countryCode", json!({ "type": ["string", "null"], "pattern": "^\\+[0-9]{1,3}$" })),
                    ("phone", json!({ "type": ["string", "null"], "pattern": "^[0-9]{6,14}$", "description": "The digits after the country code" })),
                    ("bio", free_text(1000)),
                    ("website", json!({ "type": ["string", "null"], "maxLength": 255, "pattern": format!("^(https?://[^\\s{CONTROL}]+)?$") })),
                    ("born", json!({ "type": ["string", "null"], "format": "date", "description": "A past date from 1900 on" })),
                    ("social", or_null(object(&["github", "linkedin", "instagram", "twitter", "facebook"].map(|k| (k, free_text(255))), &[]))),
                    ("address", or_null(object(&["street", "city", "state", "zip", "country"].map(|k| (k, free_text(255))), &[]))),
                    ("preferences", or_null(object(&[
                        ("notifications", or_null(object(&["email", "sms", "push"].map(|k| (k, json!({ "type": ["boolean", "null"] }))), &[]))),
                        ("theme", json!({ "enum": ["light", "dark", null] })),
                    ], &[]))),
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
                "Organization": object(&[
                    ("id", json!({ "type": "string", "format": "uuid" })),
                    ("name", string()), ("slug", string()),
                    ("kind", json!({ "enum": ["hire", "campus"] })),
                    ("seatLimit", json!({ "type": ["integer", "null"] })),
                    ("memberCount", json!({ "type": "integer" })),
                    ("myRole", json!({ "enum": ["owner", "admin", "member", null] })),
                    ("createdAt", json!({ "type": "string", "format": "date-time" })),
                ], &["id", "name", "slug", "kind", "seatLimit", "memberCount", "myRole", "createdAt"]),
                "Membership": object(&[
                    ("user", object(&[("id", string()), ("name", string()), ("email", string())], &["id", "name", "email"])),
                    ("role", json!({ "enum": ["owner", "admin", "member"] })),
                    ("joinedAt", json!({ "type": "string", "format": "date-time" })),
                ], &["user", "role", "joinedAt"]),
                "Passkey": object(&[
                    ("id", json!({ "type": "string", "format": "uuid" })),
                    ("name", string()),
                    ("createdAt", json!({ "type": "string", "format": "date-time" })),
                    ("lastUsedAt", json!({ "type": ["string", "null"], "format": "date-time" })),
                ], &["id", "name", "createdAt", "lastUsedAt"]),
                "AdminUser": json!({ "allOf": [
                    { "$ref": "#/components/schemas/User" },
                    object(&[
                        ("lastSignInAt", json!({ "type": ["string", "null"], "format": "date-time" })),
                        ("organizations", json!({ "type": "integer" })),
                    ], &["lastSignInAt", "organizations"]),
                ] }),
                "AuditEvent": object(&[
                    ("id", json!({ "type": "string", "format": "uuid" })),
                    ("at", json!({ "type": "string", "format": "date-time" })),
                    ("kind", string()),
                    ("userId", nullable_string()), ("actorId", nullable_string()),
                    ("ip", nullable_string()), ("userAgent", nullable_string()), ("detail", nullable_string()),
                ], &["id", "at", "kind", "userId", "actorId", "ip", "userAgent", "detail"]),
                "Identity": object(&[
                    ("provider", json!({ "enum": ["google", "linkedin", "microsoft", "github"] })),
                    ("email", nullable_string()),
                    ("linkedAt", json!({ "type": "string", "format": "date-time" })),
                ], &["provider", "email", "linkedAt"]),
                "Invitation": invitation(&[]),
                "InvitationDetails": invitation(&[("organization", object(&[("name", string()), ("kind", json!({ "enum": ["hire", "campus"] }))], &["name", "kind"]))]),
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
