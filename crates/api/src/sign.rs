//! Upload forms signed as Amazon S3 signs a browser-based POST (AWS
//! Signature Version 4): the policy is base64 JSON with an expiration and
//! conditions, and the signature is HMAC-SHA256 of the policy text with a
//! key derived from the host's secret, the date, a region, a service and
//! `aws4_request`. The credential's first part names the tenant, as S3's
//! names the access key.

use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Duration, OffsetDateTime};

use crate::ids::hex;

pub const ALGORITHM: &str = "AWS4-HMAC-SHA256";
const REGION: &str = "local";
const SERVICE: &str = "s3";
const BUCKET: &str = "zdr-host";
/// How long a signed form may be used.
pub const VALID_FOR: Duration = Duration::hours(1);

type HmacSha256 = Hmac<Sha256>;

fn hmac(key: &[u8], data: &[u8]) -> [u8; 32] {
    // Any key length is valid for HMAC: new_from_slice cannot fail here.
    let mut mac = match HmacSha256::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => return [0; 32],
    };
    mac.update(data);
    mac.finalize().into_bytes().into()
}

fn signing_key(secret: &[u8; 32], date: &str) -> [u8; 32] {
    let mut first = b"AWS4".to_vec();
    first.extend_from_slice(hex(secret).as_bytes());
    let k_date = hmac(&first, date.as_bytes());
    let k_region = hmac(&k_date, REGION.as_bytes());
    let k_service = hmac(&k_region, SERVICE.as_bytes());
    hmac(&k_service, b"aws4_request")
}

/// The form fields of an upload of `key` by `tenant`, at `now`.
pub struct Form {
    pub fields: Vec<(&'static str, String)>,
}

/// `meta`: fields of user metadata (`x-amz-meta-*`) the form carries,
/// each fixed by the policy as S3 fixes them.
pub fn form(
    secret: &[u8; 32],
    tenant: &str,
    key: &str,
    content_type: &str,
    max_size: usize,
    meta: &[(&'static str, String)],
    now: OffsetDateTime,
) -> Form {
    let date = now
        .format(format_description!("[year][month][day]"))
        .unwrap_or_default();
    let amz_date = now
        .format(format_description!(
            "[year][month][day]T[hour][minute][second]Z"
        ))
        .unwrap_or_default();
    let credential = format!("{tenant}/{date}/{REGION}/{SERVICE}/aws4_request");
    let expiration = (now + VALID_FOR)
        .replace_nanosecond(0)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default();
    let mut conditions = vec![
        json!({"bucket": BUCKET}),
        json!(["eq", "$key", key]),
        json!(["eq", "$Content-Type", content_type]),
        json!(["content-length-range", 1, max_size]),
        json!({"x-amz-algorithm": ALGORITHM}),
        json!({"x-amz-credential": credential}),
        json!({"x-amz-date": amz_date}),
    ];
    for (name, value) in meta {
        conditions.push(json!(["eq", format!("${name}"), value]));
    }
    let policy = json!({"expiration": expiration, "conditions": conditions});
    let policy = base64::engine::general_purpose::STANDARD.encode(policy.to_string());
    let signature = hex(&hmac(&signing_key(secret, &date), policy.as_bytes()));
    let mut fields = vec![
        ("Content-Type", content_type.to_owned()),
        ("key", key.to_owned()),
        ("x-amz-algorithm", ALGORITHM.to_owned()),
        ("x-amz-credential", credential),
        ("x-amz-date", amz_date),
    ];
    fields.extend(meta.iter().cloned());
    fields.push(("policy", policy));
    fields.push(("x-amz-signature", signature));
    Form { fields }
}

/// What a verified form allows: the tenant, the key and the size range.
#[derive(Debug)]
pub struct Allowed {
    pub tenant: String,
    pub key: String,
    pub content_type: String,
    pub min_size: u64,
    pub max_size: u64,
}

/// Checks a posted form as S3 checks one: the signature over the policy,
/// the policy's expiration, and that every field is what a condition asks
/// and every field is named by a condition. The file's size is checked by
/// the caller against [`Allowed`]'s range. Errors say what is wrong, never
/// what would be right.
pub fn verify(
    secret: &[u8; 32],
    fields: &[(String, String)],
    now: OffsetDateTime,
) -> Result<Allowed, String> {
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let need = |name: &'static str| field(name).ok_or(format!("the form has no {name} field"));
    let policy_text = need("policy")?;
    let signature = need("x-amz-signature")?;
    let credential = need("x-amz-credential")?;
    if need("x-amz-algorithm")? != ALGORITHM {
        return Err(format!("x-amz-algorithm must be {ALGORITHM}"));
    }
    let mut parts = credential.split('/');
    let (Some(tenant), Some(date), Some(REGION), Some(SERVICE), Some("aws4_request"), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return Err("x-amz-credential is malformed".into());
    };
    let given = (0..signature.len() / 2)
        .map(|i| {
            signature
                .get(2 * i..2 * i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()
        .unwrap_or_default();
    let mut mac = HmacSha256::new_from_slice(&signing_key(secret, date))
        .map_err(|_| "the signature does not match".to_string())?;
    mac.update(policy_text.as_bytes());
    if signature.len() != 64 || mac.verify_slice(&given).is_err() {
        return Err("the signature does not match the policy".into());
    }
    let policy: Value = base64::engine::general_purpose::STANDARD
        .decode(policy_text)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or("the policy is not base64 JSON")?;
    let expiration = policy
        .get("expiration")
        .and_then(Value::as_str)
        .and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok())
        .ok_or("the policy has no expiration")?;
    if now > expiration {
        return Err("the policy has expired; ask for a new upload URL".into());
    }
    let conditions = policy
        .get("conditions")
        .and_then(Value::as_array)
        .ok_or("the policy has no conditions")?;
    let mut named: Vec<String> = Vec::new();
    let (mut min_size, mut max_size) = (0u64, 0u64);
    for condition in conditions {
        let (name, wanted) = match condition {
            Value::Object(map) if map.len() == 1 => match map.iter().next() {
                Some((name, Value::String(wanted))) => (name.clone(), wanted.clone()),
                _ => return Err("the policy has a condition it cannot check".into()),
            },
            Value::Array(items) => match items.as_slice() {
                [Value::String(op), Value::String(name), Value::String(wanted)] if op == "eq" => {
                    (name.trim_start_matches('$').to_owned(), wanted.clone())
                }
                [Value::String(op), lo, hi] if op == "content-length-range" => {
                    min_size = lo.as_u64().ok_or("content-length-range is malformed")?;
                    max_size = hi.as_u64().ok_or("content-length-range is malformed")?;
                    continue;
                }
                _ => return Err("the policy has a condition it cannot check".into()),
            },
            _ => return Err("the policy has a condition it cannot check".into()),
        };
        if name == "bucket" {
            if wanted != BUCKET {
                return Err("the policy names another bucket".into());
            }
            continue;
        }
        if field(&name) != Some(wanted.as_str()) {
            return Err(format!("the field {name} does not match the policy"));
        }
        named.push(name.to_ascii_lowercase());
    }
    for (name, _) in fields {
        let name = name.to_ascii_lowercase();
        let exempt = ["policy", "x-amz-signature", "file"].contains(&name.as_str())
            || name.starts_with("x-ignore-");
        if !exempt && !named.contains(&name) {
            return Err(format!("the field {name} is not allowed by the policy"));
        }
    }
    let key = field("key").ok_or("the form has no key field")?.to_owned();
    let content_type = field("Content-Type").unwrap_or_default().to_owned();
    if !named.contains(&"key".to_string()) || max_size == 0 {
        return Err("the policy does not fix the key and the size".into());
    }
    Ok(Allowed {
        tenant: tenant.to_owned(),
        key,
        content_type,
        min_size,
        max_size,
    })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn fields(form: &Form) -> Vec<(String, String)> {
        form.fields
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.clone()))
            .collect()
    }

    #[test]
    fn a_signed_form_verifies_and_any_change_does_not() {
        let secret = [7u8; 32];
        let now = OffsetDateTime::now_utc();
        let form = form(
            &secret,
            "t_1",
            "file_1/a.csv",
            "text/csv",
            100,
            &[("x-amz-meta-source", "Finance".into())],
            now,
        );
        let good = fields(&form);
        let allowed = verify(&secret, &good, now).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (allowed.tenant.as_str(), allowed.key.as_str()),
            ("t_1", "file_1/a.csv")
        );
        assert_eq!((allowed.min_size, allowed.max_size), (1, 100));
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i].1.push('x');
            assert!(verify(&secret, &bad, now).is_err(), "{} changed", bad[i].0);
            let mut missing = good.clone();
            missing.remove(i);
            assert!(
                verify(&secret, &missing, now).is_err(),
                "{} left out",
                good[i].0
            );
        }
        let mut extra = good.clone();
        extra.push(("acl".into(), "public-read".into()));
        assert!(verify(&secret, &extra, now).is_err());
        assert!(
            verify(&[8u8; 32], &good, now).is_err(),
            "another host's secret"
        );
        assert!(verify(&secret, &good, now + VALID_FOR + Duration::seconds(1)).is_err());
    }
}
