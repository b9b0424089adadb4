//! Where the bucket's credentials come from, in the order AWS's own tools
//! look (the "default credential provider chain"):
//!
//! 1. the environment: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
//!    `AWS_SESSION_TOKEN`;
//! 2. a profile (`AWS_PROFILE`, else `default`) of the shared credentials
//!    file (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`) or
//!    the config file (`AWS_CONFIG_FILE`, else `~/.aws/config`), read again
//!    whenever either file changes, so that a rotation needs no restart;
//! 3. a web identity token file (`AWS_WEB_IDENTITY_TOKEN_FILE` with
//!    `AWS_ROLE_ARN`: EKS service accounts);
//! 4. the container endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`:
//!    ECS; `AWS_CONTAINER_CREDENTIALS_FULL_URI` with
//!    `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE`: EKS Pod Identity);
//! 5. the instance metadata endpoint (EC2), unless
//!    `AWS_EC2_METADATA_DISABLED=true`.
//!
//! Sources 3 to 5 are `object_store`'s own, which fetches temporary
//! credentials and fetches new ones five minutes before they expire. The
//! host asks the chosen source for the credentials current at each request
//! and at each upload form it signs.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use object_store::aws::{AmazonS3ConfigKey, AwsCredential};
use object_store::CredentialProvider;

use super::StoreError;

/// A credentials or config file is a few lines; anything larger is not one.
const MAX_PROFILE_FILE: u64 = 64 * 1024;

/// The environment variables of sources 3 to 5 that `object_store` takes
/// as settings (the web identity pair it reads from the environment itself).
const CLOUD_SETTINGS: [&str; 7] = [
    "AWS_ROLE_SESSION_NAME",
    "AWS_ENDPOINT_URL_STS",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
    "AWS_METADATA_ENDPOINT",
    "AWS_IMDSV1_FALLBACK",
];

/// The source the chain chose.
#[derive(Debug)]
pub enum Source {
    Environment(AwsCredential),
    Profile(Arc<ProfileFile>),
    /// Sources 3 to 5, with the settings `object_store` needs for them.
    Cloud {
        settings: Vec<(AmazonS3ConfigKey, String)>,
        which: &'static str,
    },
}

impl Source {
    /// The first source of the chain that is set, from `var`, the process
    /// environment in the host.
    pub fn choose(var: &dyn Fn(&str) -> Option<String>) -> Result<Source, StoreError> {
        match (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY")) {
            (Some(key_id), Some(secret_key)) => {
                return Ok(Source::Environment(AwsCredential {
                    key_id,
                    secret_key,
                    token: var("AWS_SESSION_TOKEN"),
                }))
            }
            (Some(_), None) | (None, Some(_)) => {
                return Err(StoreError::Settings(
                    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: set both, or neither to use a profile or the cloud's role credentials".into(),
                ))
            }
            (None, None) => {}
        }
        if let Some(profile) = ProfileFile::from_env(var)? {
            return Ok(Source::Profile(Arc::new(profile)));
        }
        let mut settings = Vec::new();
        for name in CLOUD_SETTINGS {
            if let (Some(value), Ok(key)) = (var(name), name.to_ascii_lowercase().parse()) {
                settings.push((key, value));
            }
        }
        let which = if var("AWS_WEB_IDENTITY_TOKEN_FILE").is_some() && var("AWS_ROLE_ARN").is_some()
        {
            "a web identity token (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN)"
        } else if var("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").is_some()
            || var("AWS_CONTAINER_CREDENTIALS_FULL_URI").is_some()
        {
            "the container credentials endpoint"
        } else if var("AWS_EC2_METADATA_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
            return Err(StoreError::Settings(
                "--object-store s3://… found no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile in ~/.aws/credentials (AWS_PROFILE, AWS_SHARED_CREDENTIALS_FILE), a web identity token (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN) or a container endpoint; the instance metadata endpoint is off (AWS_EC2_METADATA_DISABLED)".into(),
            ));
        } else {
            "the instance metadata endpoint"
        };
        Ok(Source::Cloud { settings, which })
    }

    /// In words, for the log: never a key.
    pub fn describe(&self) -> String {
        match self {
            Source::Environment(credential) if credential.token.is_some() => {
                "temporary keys from the environment".into()
            }
            Source::Environment(_) => "keys from the environment".into(),
            Source::Profile(profile) => format!(
                "profile '{}' of {} (read again when it changes)",
                profile.profile,
                profile.where_found()
            ),
            Source::Cloud { which, .. } => format!("{which}, refreshed before they expire"),
        }
    }
}

/// The credentials of one profile in the shared files, read again when
/// either file's size or modification time changes.
pub struct ProfileFile {
    profile: String,
    credentials: Option<PathBuf>,
    config: Option<PathBuf>,
    /// What was read last, and the files' stamps when it was.
    last: Mutex<Option<(Stamps, Arc<AwsCredential>)>>,
    /// The region the profile names in the config file, if any.
    pub region: Option<String>,
}

type Stamps = [Option<(SystemTime, u64)>; 2];

impl std::fmt::Debug for ProfileFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProfileFile")
            .field("profile", &self.profile)
            .field("credentials", &self.credentials)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl ProfileFile {
    /// The profile the environment names, when a file holds it; an error
    /// when `AWS_PROFILE` names one that neither file has keys for.
    fn from_env(var: &dyn Fn(&str) -> Option<String>) -> Result<Option<ProfileFile>, StoreError> {
        let home = var("HOME").map(PathBuf::from);
        let in_home = |name: &str| home.as_ref().map(|h| h.join(".aws").join(name));
        let credentials = var("AWS_SHARED_CREDENTIALS_FILE")
            .map(PathBuf::from)
            .or_else(|| in_home("credentials"));
        let config = var("AWS_CONFIG_FILE")
            .map(PathBuf::from)
            .or_else(|| in_home("config"));
        if credentials.is_none() && config.is_none() {
            return Ok(None);
        }
        let named = var("AWS_PROFILE");
        let profile = ProfileFile {
            profile: named.clone().unwrap_or_else(|| "default".into()),
            credentials,
            config,
            last: Mutex::new(None),
            region: None,
        };
        match profile.read() {
            Ok((credential, region)) => {
                let stamps = profile.stamps();
                let profile = ProfileFile {
                    last: Mutex::new(Some((stamps, Arc::new(credential)))),
                    region,
                    ..profile
                };
                Ok(Some(profile))
            }
            Err(ProfileError::NotThere) if named.is_none() => Ok(None),
            Err(e) => Err(StoreError::Settings(profile.explain(&e))),
        }
    }

    fn where_found(&self) -> String {
        let files: Vec<String> = [&self.credentials, &self.config]
            .into_iter()
            .flatten()
            .map(|path| path.display().to_string())
            .collect();
        files.join(" or ")
    }

    fn explain(&self, error: &ProfileError) -> String {
        match error {
            ProfileError::NotThere => format!(
                "AWS_PROFILE={}: {} has no keys (aws_access_key_id, aws_secret_access_key) for it; profiles of roles, SSO or credential_process are not read here: use the web identity or container credentials instead",
                self.profile,
                self.where_found()
            ),
            ProfileError::File { path, message } => format!("{}: {message}", path.display()),
        }
    }

    fn stamps(&self) -> Stamps {
        let stamp = |path: &Option<PathBuf>| {
            let meta = std::fs::metadata(path.as_ref()?).ok()?;
            Some((meta.modified().ok()?, meta.len()))
        };
        [stamp(&self.credentials), stamp(&self.config)]
    }

    /// The profile's keys (the credentials file first, as AWS's tools
    /// have it) and the region the config file gives it.
    fn read(&self) -> Result<(AwsCredential, Option<String>), ProfileError> {
        let config_section = if self.profile == "default" {
            "default".to_owned()
        } else {
            format!("profile {}", self.profile)
        };
        let credentials = read_ini(&self.credentials)?;
        let config = read_ini(&self.config)?;
        let in_file = |ini: &Option<ini::Ini>, section: &str| {
            ini.as_ref()
                .and_then(|ini| ini.section(Some(section)))
                .cloned()
        };
        let region =
            in_file(&config, &config_section).and_then(|s| s.get("region").map(str::to_owned));
        let keys = |section: Option<ini::Properties>| {
            let section = section?;
            let get = |name: &str| section.get(name).map(str::trim).filter(|v| !v.is_empty());
            Some(AwsCredential {
                key_id: get("aws_access_key_id")?.to_owned(),
                secret_key: get("aws_secret_access_key")?.to_owned(),
                token: get("aws_session_token")
                    .or_else(|| get("aws_security_token"))
                    .map(str::to_owned),
            })
        };
        keys(in_file(&credentials, &self.profile))
            .or_else(|| keys(in_file(&config, &config_section)))
            .map(|credential| (credential, region))
            .ok_or(ProfileError::NotThere)
    }

    fn current(&self) -> Result<Arc<AwsCredential>, String> {
        let stamps = self.stamps();
        let mut last = self
            .last
            .lock()
            .map_err(|_| "a credentials read failed".to_owned())?;
        if let Some((seen, credential)) = last.as_ref() {
            if *seen == stamps {
                return Ok(Arc::clone(credential));
            }
        }
        let (credential, _) = self.read().map_err(|e| self.explain(&e))?;
        let credential = Arc::new(credential);
        *last = Some((stamps, Arc::clone(&credential)));
        Ok(credential)
    }
}

#[derive(Debug)]
enum ProfileError {
    NotThere,
    File { path: PathBuf, message: String },
}

/// A file of the INI kind AWS's tools write; `None` when there is none.
fn read_ini(path: &Option<PathBuf>) -> Result<Option<ini::Ini>, ProfileError> {
    let Some(path) = path else { return Ok(None) };
    let fail = |message: String| ProfileError::File {
        path: path.to_owned(),
        message,
    };
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(e.to_string())),
    };
    let mut text = String::new();
    file.take(MAX_PROFILE_FILE + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    if text.len() as u64 > MAX_PROFILE_FILE {
        return Err(fail(format!(
            "more than {MAX_PROFILE_FILE} bytes: not a credentials file"
        )));
    }
    ini::Ini::load_from_str(&text)
        .map(Some)
        .map_err(|e| fail(format!("not an INI file ({e})")))
}

#[async_trait::async_trait]
impl CredentialProvider for ProfileFile {
    type Credential = AwsCredential;

    async fn get_credential(&self) -> object_store::Result<Arc<AwsCredential>> {
        self.current()
            .map_err(|message| object_store::Error::Generic {
                store: "S3",
                source: message.into(),
            })
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[tokio::test]
    async fn the_chain_takes_the_environment_then_a_profile_read_again_when_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let credentials = dir.path().join("credentials");
        let config = dir.path().join("config");
        std::fs::write(
            &credentials,
            "[default]\naws_access_key_id = D\naws_secret_access_key = d\n\n[zdr]\naws_access_key_id = K1\naws_secret_access_key = S1\naws_session_token = T1\n",
        )
        .unwrap();
        std::fs::write(&config, "[profile zdr]\nregion = eu-west-3\n").unwrap();
        let (c, f) = (credentials.to_str().unwrap(), config.to_str().unwrap());

        let keys = env(&[
            ("AWS_ACCESS_KEY_ID", "E"),
            ("AWS_SECRET_ACCESS_KEY", "e"),
            ("AWS_SHARED_CREDENTIALS_FILE", c),
        ]);
        assert!(
            matches!(Source::choose(&keys).unwrap(), Source::Environment(k) if k.key_id == "E")
        );
        assert!(Source::choose(&env(&[("AWS_ACCESS_KEY_ID", "E")])).is_err());

        let named = env(&[
            ("AWS_SHARED_CREDENTIALS_FILE", c),
            ("AWS_CONFIG_FILE", f),
            ("AWS_PROFILE", "zdr"),
        ]);
        let Source::Profile(profile) = Source::choose(&named).unwrap() else {
            panic!("the profile")
        };
        assert_eq!(profile.region.as_deref(), Some("eu-west-3"));
        let first = profile.get_credential().await.unwrap();
        assert_eq!(
            (first.key_id.as_str(), first.token.as_deref()),
            ("K1", Some("T1"))
        );
        let described = Source::Profile(Arc::clone(&profile)).describe();
        assert!(
            described.contains("'zdr'") && !described.contains("S1"),
            "{described}"
        );

        std::fs::write(
            &credentials,
            "[zdr]\naws_access_key_id = K2\naws_secret_access_key = S2\naws_session_token = T2\n",
        )
        .unwrap();
        let rotated = profile.get_credential().await.unwrap();
        assert_eq!(
            (rotated.key_id.as_str(), rotated.token.as_deref()),
            ("K2", Some("T2"))
        );

        std::fs::write(&credentials, "[zdr]\naws_access_key_id = K3\n").unwrap();
        let error = profile.get_credential().await.unwrap_err().to_string();
        assert!(
            error.contains("AWS_PROFILE=zdr") && !error.contains("S2"),
            "{error}"
        );

        // The file no longer has a `default` profile: on to the cloud's sources.
        let default = env(&[("AWS_SHARED_CREDENTIALS_FILE", c), ("AWS_CONFIG_FILE", f)]);
        assert!(matches!(
            Source::choose(&default).unwrap(),
            Source::Cloud { .. }
        ));
        let missing = env(&[
            ("AWS_SHARED_CREDENTIALS_FILE", c),
            ("AWS_CONFIG_FILE", f),
            ("AWS_PROFILE", "nope"),
        ]);
        assert!(Source::choose(&missing)
            .unwrap_err()
            .to_string()
            .contains("AWS_PROFILE=nope"));
        let none = env(&[
            ("AWS_SHARED_CREDENTIALS_FILE", c),
            ("AWS_EC2_METADATA_DISABLED", "true"),
        ]);
        assert!(Source::choose(&none)
            .unwrap_err()
            .to_string()
            .contains("found no credentials"));

        std::fs::write(&credentials, "x".repeat(70_000)).unwrap();
        let big = env(&[("AWS_SHARED_CREDENTIALS_FILE", c), ("AWS_PROFILE", "zdr")]);
        assert!(Source::choose(&big)
            .unwrap_err()
            .to_string()
            .contains("not a credentials file"));
    }

    #[test]
    fn cloud_sources_are_named_and_their_settings_passed_on() {
        let container = env(&[
            ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials"),
            (
                "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                "http://127.0.0.1:9/creds",
            ),
            ("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "/run/token"),
        ]);
        let Source::Cloud { settings, which } = Source::choose(&container).unwrap() else {
            panic!("a cloud source")
        };
        assert_eq!(which, "the container credentials endpoint");
        assert_eq!(settings.len(), 2);
        let web = env(&[
            ("AWS_WEB_IDENTITY_TOKEN_FILE", "/t"),
            ("AWS_ROLE_ARN", "arn:aws:iam::1:role/r"),
        ]);
        assert!(Source::choose(&web)
            .unwrap()
            .describe()
            .starts_with("a web identity token"));
    }
}
