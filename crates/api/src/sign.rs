//! Upload forms signed as Amazon S3 signs a browser-based POST (AWS
//! Signature Version 4): the policy is base64 JSON with an expiration and
//! conditions, and the signature is HMAC-SHA256 of the policy text with a
//! key derived from a secret, the date, a region, a service and
//! `aws4_request`.
//!
//! Two signers use it: this host's own `/upload/` (the secret is the host's,
//! the credential's first part names the tenant as S3's names the access
//! key, and [`verify`] checks the form), and a bucket (`--object-store
//! s3://…`: the bucket's own credentials, and the bucket checks the form).

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

/// SigV4's signing key: the secret, then the date, region and service.
fn signing_key(secret: &str, date: &str, region: &str) -> [u8; 32] {
    let first = format!("AWS4{secret}");
    let k_date = hmac(first.as_bytes(), date.as_bytes());
    let k_region = hmac(&k_date, region.as_bytes());
    let k_service = hmac(&k_region, SERVICE.as_bytes());
    hmac(&k_service, b"aws4_request")
}

/// The signature of a base64 policy, in hex, for a credential's date
/// (`YYYYMMDD`) and region.
pub fn policy_signature(secret: &str, date: &str, region: &str, policy: &str) -> String {
    hex(&hmac(&signing_key(secret, date, region), policy.as_bytes()))
}

/// Who signs a form, for which bucket.
pub struct Signer<'a> {
    /// The credential's first part: an access key id, or this host's tenant.
    pub access_key: &'a str,
    pub secret: &'a str,
    pub region: &'a str,
    pub bucket: &'a str,
    /// A session token of temporary credentials (`x-amz-security-token`).
    pub token: Option<&'a str>,
}

/// The form fields of an upload of `key`.
pub struct Form {
    pub fields: Vec<(&'static str, String)>,
}

/// The secret this host signs its own forms with, as SigV4 takes it.
fn host_secret(secret: &[u8; 32]) -> String {
    hex(secret)
}

/// A form for this host's own `/upload/`, of `key` by `tenant`, at `now`;
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
    let secret = host_secret(secret);
    let signer = Signer {
        access_key: tenant,
        secret: &secret,
        region: REGION,
        bucket: BUCKET,
        token: None,
    };
    signed_form(&signer, key, content_type, max_size, meta, now)
}

/// A form of `key` signed by `signer`, valid for [`VALID_FOR`] from `now`:
/// the key, the content type and the metadata fixed, the size from 1 byte
/// to `max_size`.
pub fn signed_form(
    signer: &Signer<'_>,
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
    let credential = format!(
        "{}/{date}/{}/{SERVICE}/aws4_request",
        signer.access_key, signer.region
    );
    let expiration = (now + VALID_FOR)
        .replace_nanosecond(0)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default();
    let mut conditions = vec![
        json!({"bucket": signer.bucket}),
        json!(["eq", "$key", key]),
        json!(["eq", "$Content-Type", content_type]),
        json!(["content-length-range", 1, max_size]),
        json!({"x-amz-algorithm": ALGORITHM}),
        json!({"x-amz-credential": credential}),
        json!({"x-amz-date": amz_date}),
    ];
    if let Some(token) = signer.token {
        conditions.push(json!({"x-amz-security-token": token}));
    }
    for (name, value) in meta {
        conditions.push(json!(["eq", format!("${name}"), value]));
    }
    let policy = json!({"expiration": expiration, "conditions": conditions});
    let policy = base64::engine::general_purpose::STANDARD.encode(policy.to_string());
    let signature = policy_signature(signer.secret, &date, signer.region, &policy);
    let mut fields = vec![
        ("Content-Type", content_type.to_owned()),
        ("key", key.to_owned()),
        ("x-amz-algorithm", ALGORITHM.to_owned()),
        ("x-amz-credential", credential),
        ("x-amz-date", amz_date),
    ];
    if let Some(token) = signer.token {
        fields.push(("x-amz-security-token", token.to_owned()));
    }
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
    let mut mac = HmacSha256::new_from_slice(&signing_key(&host_secret(secret), date, REGION))
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

    /// AWS's published example of a browser-based POST (Amazon S3 API
    /// reference, "Example: Browser-Based Upload using HTTP POST (Using AWS
    /// Signature Version 4)"): its credentials, its base64 policy (CRLF
    /// line ends) and the signature the page gives.
    #[test]
    fn the_signer_gives_awss_published_post_signature() {
        const POLICY: &str = "eyAiZXhwaXJhdGlvbiI6ICIyMDE1LTEyLTMwVDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJzaWd2NGV4YW1wbGVidWNrZXQifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRrZXkiLCAidXNlci91c2VyMS8iXSwNCiAgICB7ImFjbCI6ICJwdWJsaWMtcmVhZCJ9LA0KICAgIHsic3VjY2Vzc19hY3Rpb25fcmVkaXJlY3QiOiAiaHR0cDovL3NpZ3Y0ZXhhbXBsZWJ1Y2tldC5zMy5hbWF6b25hd3MuY29tL3N1Y2Nlc3NmdWxfdXBsb2FkLmh0bWwifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRDb250ZW50LVR5cGUiLCAiaW1hZ2UvIl0sDQogICAgeyJ4LWFtei1tZXRhLXV1aWQiOiAiMTQzNjUxMjM2NTEyNzQifSwNCiAgICB7IngtYW16LXNlcnZlci1zaWRlLWVuY3J5cHRpb24iOiAiQUVTMjU2In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIkeC1hbXotbWV0YS10YWciLCAiIl0sDQoNCiAgICB7IngtYW16LWNyZWRlbnRpYWwiOiAiQUtJQUlPU0ZPRE5ON0VYQU1QTEUvMjAxNTEyMjkvdXMtZWFzdC0xL3MzL2F3czRfcmVxdWVzdCJ9LA0KICAgIHsieC1hbXotYWxnb3JpdGhtIjogIkFXUzQtSE1BQy1TSEEyNTYifSwNCiAgICB7IngtYW16LWRhdGUiOiAiMjAxNTEyMjlUMDAwMDAwWiIgfQ0KICBdDQp9";
        assert_eq!(
            policy_signature(
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "20151229",
                "us-east-1",
                POLICY
            ),
            "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e"
        );
        // The policy is the example's, condition for condition.
        let text = base64::engine::general_purpose::STANDARD
            .decode(POLICY)
            .unwrap();
        let policy: Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(policy["expiration"], "2015-12-30T12:00:00.000Z");
        assert_eq!(
            policy["conditions"][8]["x-amz-credential"],
            "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request"
        );

        // A form made by the signer carries what the bucket checks.
        let now = OffsetDateTime::from_unix_timestamp(1_451_347_200).unwrap();
        let signer = Signer {
            access_key: "AKIAIOSFODNN7EXAMPLE",
            secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            region: "us-east-1",
            bucket: "sigv4examplebucket",
            token: None,
        };
        let form = signed_form(&signer, "uploads/a.csv", "text/csv", 10, &[], now);
        let field = |name: &str| {
            form.fields
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        assert_eq!(
            field("x-amz-credential"),
            "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request"
        );
        assert_eq!(field("x-amz-date"), "20151229T000000Z");
        assert_eq!(
            field("x-amz-signature"),
            policy_signature(signer.secret, "20151229", "us-east-1", &field("policy"))
        );
        let policy: Value = serde_json::from_slice(
            &base64::engine::general_purpose::STANDARD
                .decode(field("policy"))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(policy["expiration"], "2015-12-29T01:00:00Z");
        let conditions = policy["conditions"].as_array().unwrap();
        for wanted in [
            json!({"bucket": "sigv4examplebucket"}),
            json!(["eq", "$key", "uploads/a.csv"]),
            json!(["eq", "$Content-Type", "text/csv"]),
            json!(["content-length-range", 1, 10]),
        ] {
            assert!(conditions.contains(&wanted), "{wanted}");
        }
    }
}
