//! Objects in an S3-compatible bucket (`--object-store s3://bucket/prefix`),
//! through Apache Arrow's `object_store`, configured the usual way:
//! `AWS_ENDPOINT_URL` (unset: AWS itself), `AWS_REGION`, and credentials
//! from the chain AWS's tools follow ([`credentials`](super::credentials)).
//! AWS S3, MinIO, Ceph and R2 serve.
//!
//! Under the prefix: `objects/<tenant>/obj_…`, the host's own immutable
//! copies, named by the host; and `uploads/<tenant>/<file id>/<name>`, where
//! the forms [`Bucket::form`] signs let a browser or the SDK post a file
//! straight to the bucket. The host takes such a file in on first use
//! ([`Bucket::take_upload`]), reads it under its bounds, keeps its own copy
//! and removes the upload, so a second post to the key changes nothing
//! that is stored.
//!
//! Calls are made on the runtime's blocking threads and wait there for the
//! runtime the bucket was opened on.

use std::future::Future;
use std::sync::Arc;

use object_store::aws::{AmazonS3Builder, AwsCredentialProvider};
use object_store::path::Path;
use object_store::StaticCredentialProvider;
use object_store::{GetOptions, GetRange, ObjectStore};
use time::OffsetDateTime;
use tokio::runtime::Handle;

use super::credentials::Source;
use super::folder::is_object_name;
use super::{Intake, Objects, StoreError};
use crate::ids::new_id;
use crate::keys::Tenant;
use crate::sign::{self, Signer};

pub struct Bucket {
    store: Arc<dyn ObjectStore>,
    runtime: Handle,
    name: String,
    /// The folder of the bucket this host keeps to: empty, or ending in `/`.
    prefix: String,
    /// Asked for the credentials current at each form it signs.
    credentials: AwsCredentialProvider,
    region: String,
    /// Where forms are posted: the bucket's own address.
    form_url: String,
}

/// What an upload's key holds when the host comes to take it in.
pub enum Upload {
    /// Nothing was posted to it (yet).
    Missing,
    /// More bytes than the form allowed (the bucket should have refused).
    TooLarge(u64),
    Bytes(Vec<u8>),
}

/// The settings of `s3://…`, from the environment as AWS's tools read it.
pub struct Settings {
    pub endpoint: Option<String>,
    pub region: String,
    pub credentials: Source,
}

impl Settings {
    pub fn from_env() -> Result<Settings, StoreError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let credentials = Source::choose(&var)?;
        let profile_region = match &credentials {
            Source::Profile(profile) => profile.region.clone(),
            _ => None,
        };
        Ok(Settings {
            endpoint: var("AWS_ENDPOINT_URL").or_else(|| var("AWS_ENDPOINT")),
            region: var("AWS_REGION")
                .or_else(|| var("AWS_DEFAULT_REGION"))
                .or(profile_region)
                .unwrap_or_else(|| "us-east-1".into()),
            credentials,
        })
    }
}

/// `s3://bucket/prefix` split into the bucket and the prefix (`""` or
/// ending in `/`); `None` when either holds what S3 does not name things
/// with.
pub fn parse(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("s3://")?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let bucket_ok = (3..=63).contains(&bucket.len())
        && bucket
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
    let prefix = prefix.trim_matches('/');
    let prefix_ok = prefix.split('/').all(|segment| {
        prefix.is_empty()
            || (!segment.is_empty()
                && segment != "."
                && segment != ".."
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)))
    });
    (bucket_ok && prefix_ok).then(|| {
        let prefix = if prefix.is_empty() {
            String::new()
        } else {
            format!("{prefix}/")
        };
        (bucket.to_owned(), prefix)
    })
}

impl Bucket {
    pub fn open(url: &str, settings: Settings, runtime: Handle) -> Result<Bucket, StoreError> {
        let (name, prefix) = parse(url).ok_or_else(|| {
            StoreError::Settings(format!(
                "--object-store {url}: expected s3://bucket or s3://bucket/prefix (a bucket name of 3 to 63 lowercase letters, digits, '.' and '-')"
            ))
        })?;
        tracing::info!(
            "bucket {name}: credentials from {}",
            settings.credentials.describe()
        );
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(&name)
            .with_region(&settings.region);
        builder = match settings.credentials {
            Source::Environment(credential) => {
                builder.with_credentials(Arc::new(StaticCredentialProvider::new(credential)))
            }
            Source::Profile(profile) => builder.with_credentials(profile),
            Source::Cloud { settings, .. } => {
                settings.into_iter().fold(builder, |builder, (key, value)| {
                    builder.with_config(key, value)
                })
            }
        };
        let form_url = match &settings.endpoint {
            Some(endpoint) => {
                let endpoint = endpoint.trim_end_matches('/');
                builder = builder
                    .with_endpoint(endpoint)
                    .with_allow_http(endpoint.starts_with("http://"))
                    .with_virtual_hosted_style_request(false);
                format!("{endpoint}/{name}")
            }
            None => format!("https://{name}.s3.{}.amazonaws.com/", settings.region),
        };
        let store = builder.build().map_err(|e| StoreError::Bucket {
            bucket: name.clone(),
            message: e.to_string(),
        })?;
        Ok(Bucket {
            credentials: Arc::clone(store.credentials()),
            store: Arc::new(store),
            runtime,
            name,
            prefix,
            region: settings.region,
            form_url,
        })
    }

    fn run<T>(&self, work: impl Future<Output = object_store::Result<T>>) -> Result<T, StoreError> {
        self.runtime.block_on(work).map_err(|e| self.error(&e))
    }

    fn error(&self, error: &object_store::Error) -> StoreError {
        StoreError::Bucket {
            bucket: self.name.clone(),
            message: error.to_string(),
        }
    }

    fn object_path(&self, tenant: &Tenant, name: &str) -> Result<Path, StoreError> {
        if !is_object_name(name) || !is_object_name(&tenant.0) {
            return Err(StoreError::Bucket {
                bucket: self.name.clone(),
                message: format!(
                    "{}: not an object name this store makes",
                    name.chars().take(80).collect::<String>()
                ),
            });
        }
        Ok(Path::from(format!(
            "{}objects/{}/{name}",
            self.prefix, tenant.0
        )))
    }

    /// The key a form for `file_id`'s upload fixes: under the tenant, so
    /// no form of one key can land where another key's upload is looked for.
    pub fn upload_key(&self, tenant: &Tenant, file_id: &str, file_name: &str) -> String {
        format!("{}uploads/{}/{file_id}/{file_name}", self.prefix, tenant.0)
    }

    /// Where forms are posted.
    pub fn form_url(&self) -> &str {
        &self.form_url
    }

    /// A form the bucket itself checks: the key fixed, the content type,
    /// the size from 1 byte to `max_size`, the metadata, one hour; signed
    /// with the credentials current now, their session token included.
    pub async fn form(
        &self,
        key: &str,
        content_type: &str,
        max_size: usize,
        meta: &[(&'static str, String)],
        now: OffsetDateTime,
    ) -> Result<sign::Form, StoreError> {
        let credential = self
            .credentials
            .get_credential()
            .await
            .map_err(|e| self.error(&e))?;
        let signer = Signer {
            access_key: &credential.key_id,
            secret: &credential.secret_key,
            region: &self.region,
            bucket: &self.name,
            token: credential.token.as_deref(),
        };
        Ok(sign::signed_form(
            &signer,
            key,
            content_type,
            max_size,
            meta,
            now,
        ))
    }

    /// The file posted to an upload's key, read no further than `max`
    /// bytes whatever its size says.
    pub fn take_upload(&self, key: &str, max: u64) -> Result<Upload, StoreError> {
        let path = Path::from(key);
        let head = match self.runtime.block_on(self.store.head(&path)) {
            Ok(head) => head,
            Err(object_store::Error::NotFound { .. }) => return Ok(Upload::Missing),
            Err(e) => return Err(self.error(&e)),
        };
        if head.size > max {
            return Ok(Upload::TooLarge(head.size));
        }
        let options = GetOptions {
            range: Some(GetRange::Bounded(0..max.saturating_add(1))),
            ..GetOptions::default()
        };
        let bytes = self.run(async {
            let got = self.store.get_opts(&path, options).await?;
            got.bytes().await
        })?;
        if bytes.len() as u64 > max {
            return Ok(Upload::TooLarge(bytes.len() as u64));
        }
        Ok(Upload::Bytes(bytes.to_vec()))
    }

    /// Removes an upload once its file is taken in.
    pub fn remove_upload(&self, key: &str) -> Result<(), StoreError> {
        match self.runtime.block_on(self.store.delete(&Path::from(key))) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.error(&e)),
        }
    }
}

impl Objects for Bucket {
    fn put_object(&self, tenant: &Tenant, bytes: &[u8]) -> Result<String, StoreError> {
        // Names are new and random: no write ever replaces another's object.
        let name = new_id("obj");
        let path = self.object_path(tenant, &name)?;
        let payload = object_store::PutPayload::from(bytes.to_vec());
        self.run(self.store.put(&path, payload))?;
        Ok(name)
    }

    fn object(&self, tenant: &Tenant, name: &str) -> Result<Vec<u8>, StoreError> {
        let path = self.object_path(tenant, name)?;
        let bytes = self.run(async { self.store.get(&path).await?.bytes().await })?;
        Ok(bytes.to_vec())
    }

    fn object_len(&self, tenant: &Tenant, name: &str) -> Result<u64, StoreError> {
        let path = self.object_path(tenant, name)?;
        Ok(self.run(self.store.head(&path))?.size)
    }

    fn delete_objects(&self, tenant: &Tenant, names: &[&str]) -> Result<(), StoreError> {
        for name in names {
            let Ok(path) = self.object_path(tenant, name) else {
                continue;
            };
            match self.runtime.block_on(self.store.delete(&path)) {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(self.error(&e)),
            }
        }
        Ok(())
    }

    fn intake(&self) -> Intake<'_> {
        Intake::Bucket(self)
    }

    fn ready(&self) -> Result<(), StoreError> {
        let prefix = Path::from(self.prefix.trim_end_matches('/'));
        self.run(self.store.list_with_delimiter(Some(&prefix)))
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_urls_name_a_bucket_and_a_clean_prefix() {
        assert_eq!(parse("s3://charts"), Some(("charts".into(), String::new())));
        assert_eq!(
            parse("s3://charts/zdr/prod/"),
            Some(("charts".into(), "zdr/prod/".into()))
        );
        for bad in [
            "charts",
            "s3://",
            "s3://ab",
            "s3://Charts",
            "s3://charts/../x",
            "s3://charts/a//b",
            "s3://charts/a b",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
