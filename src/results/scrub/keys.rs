//! What a credential is to the scrub: the keys whose value is one (any
//! case, `-` read as `_`), the values under them that are none (empty,
//! null-like, a mask of asterisks, already removed), and the [`MARKER`]
//! that replaces one. Shared by the full pass (`scrub.rs`) and the quick
//! look (`glance.rs`), and naming neither.

/// What a removed credential is replaced with.
pub const MARKER: &str = "[removed]";

/// Keys whose value is a credential (lower case, `-` read as `_`).
pub(super) const CREDENTIAL_KEYS: &[&str] = &[
    "api_key",
    "apikey",
    "x_api_key",
    "openai_api_key",
    "token",
    "access_token",
    "auth_token",
    "bearer_token",
    "refresh_token",
    "id_token",
    "hf_token",
    "huggingface_token",
    "hugging_face_hub_token",
    "authorization",
    "proxy_authorization",
    "password",
    "passwd",
    "secret",
    "client_secret",
    "secret_key",
    "private_key",
    "aws_secret_access_key",
    "cookie",
];

/// Key endings that make a credential key too (`openai_api_key`,
/// `db_password`); `_token` is not one: `time_to_first_token` is a metric.
const CREDENTIAL_SUFFIXES: &[&str] = &["_api_key", "_password", "_secret", "_secret_key"];

fn normalize(key: &str) -> String {
    key.to_ascii_lowercase().replace('-', "_")
}

/// Whether a key names a credential.
pub fn is_credential_key(key: &str) -> bool {
    let k = normalize(key);
    CREDENTIAL_KEYS.contains(&k.as_str()) || CREDENTIAL_SUFFIXES.iter().any(|s| k.ends_with(s))
}

/// Whether a value found under a credential key is a credential: not
/// empty, not null-like, not a mask of asterisks, not already removed.
pub(super) fn is_secret_value(v: &str) -> bool {
    let t = v.trim();
    !(t.is_empty()
        || t == MARKER
        || t.bytes().all(|b| b == b'*')
        || matches!(
            t.to_ascii_lowercase().as_str(),
            "none" | "null" | "nil" | "true" | "false" | "<none>" | "not set"
        ))
}
