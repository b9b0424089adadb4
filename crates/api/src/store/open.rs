//! Which store a host keeps its rows and objects in, from
//! `--database-url` and `--object-store`.

use std::path::PathBuf;

use crate::config::ApiConfig;
use tokio::runtime::Handle;

use super::bucket::{self, Bucket};
use super::folder::Folder;
use super::postgres::Postgres;
use super::sqlite::Sqlite;
use super::{Store, StoreError};

/// Where the rows and the objects are, as the settings say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub database: Database,
    pub objects: ObjectPlace,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    Postgres(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectPlace {
    Folder(PathBuf),
    Bucket(String),
}

impl Location {
    pub fn of(config: &ApiConfig) -> Result<Location, StoreError> {
        let database = match config.database_url.as_deref().map(str::trim) {
            None | Some("") => Database::Sqlite(config.data_dir.join("zdr.sqlite3")),
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Database::Postgres(url.to_owned())
            }
            Some(url) => match url.strip_prefix("sqlite:") {
                Some(path) if !path.trim_start_matches('/').is_empty() => {
                    // sqlite:///abs/file and sqlite://relative/file
                    let path = path.strip_prefix("//").unwrap_or(path);
                    Database::Sqlite(PathBuf::from(path))
                }
                _ => {
                    return Err(StoreError::Settings(
                        "--database-url must be sqlite://<file> or postgres://user:password@host:port/database".into(),
                    ))
                }
            },
        };
        let objects = match config.object_store.as_deref().map(str::trim) {
            None | Some("") => ObjectPlace::Folder(config.data_dir.clone()),
            Some(url) if url.starts_with("s3://") => ObjectPlace::Bucket(url.to_owned()),
            Some(url) if url.starts_with("file://") => {
                ObjectPlace::Folder(PathBuf::from(url.trim_start_matches("file://")))
            }
            Some(url) if url.contains("://") => {
                return Err(StoreError::Settings(format!(
                    "--object-store {url}: expected a folder or s3://bucket/prefix"
                )))
            }
            Some(path) => ObjectPlace::Folder(PathBuf::from(path)),
        };
        Ok(Location { database, objects })
    }

    /// Shared by other hosts (PostgreSQL, a bucket): opened at start, so
    /// that the schema is migrated and a wrong setting stops the host.
    pub fn is_shared(&self) -> bool {
        matches!(self.database, Database::Postgres(_))
            || matches!(self.objects, ObjectPlace::Bucket(_))
    }

    /// In words, for the log: never a password.
    pub fn describe(&self) -> String {
        let database = match &self.database {
            Database::Sqlite(path) => format!("SQLite at {}", path.display()),
            Database::Postgres(url) => match url::Url::parse(url) {
                Ok(url) => format!(
                    "PostgreSQL at {}:{}{}",
                    url.host_str().unwrap_or("localhost"),
                    url.port().unwrap_or(5432),
                    url.path()
                ),
                Err(_) => "PostgreSQL".into(),
            },
        };
        let objects = match &self.objects {
            ObjectPlace::Folder(path) => format!("objects in {}", path.display()),
            ObjectPlace::Bucket(url) => format!("objects in {url}"),
        };
        format!("{database}, {objects}")
    }
}

/// Opens both, on a thread that may wait (a PostgreSQL pool and a bucket
/// run their calls on `runtime`).
pub fn open(config: &ApiConfig, runtime: Handle) -> Result<Store, StoreError> {
    let location = Location::of(config)?;
    let rows: Box<dyn super::Rows> = match &location.database {
        Database::Sqlite(path) => Box::new(Sqlite::open(path)?),
        Database::Postgres(url) => {
            Box::new(Postgres::open(url, config.database_pool, runtime.clone())?)
        }
    };
    let objects: Box<dyn super::Objects> = match &location.objects {
        ObjectPlace::Folder(path) => Box::new(Folder::open(path)?),
        ObjectPlace::Bucket(url) => {
            Box::new(Bucket::open(url, bucket::Settings::from_env()?, runtime)?)
        }
    };
    Ok(Store { rows, objects })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn location(database: Option<&str>, objects: Option<&str>) -> Result<Location, StoreError> {
        Location::of(&ApiConfig {
            data_dir: PathBuf::from("/data"),
            database_url: database.map(str::to_owned),
            object_store: objects.map(str::to_owned),
            ..ApiConfig::default()
        })
    }

    #[test]
    fn urls_choose_the_stores() {
        let default = location(None, None).unwrap();
        assert_eq!(
            default.database,
            Database::Sqlite(PathBuf::from("/data/zdr.sqlite3"))
        );
        assert_eq!(default.objects, ObjectPlace::Folder(PathBuf::from("/data")));
        assert!(!default.is_shared());
        assert_eq!(
            location(Some("sqlite:///var/zdr/db.sqlite3"), None)
                .unwrap()
                .database,
            Database::Sqlite(PathBuf::from("/var/zdr/db.sqlite3"))
        );
        let shared = location(
            Some("postgres://zdr:secret@db:5432/zdr"),
            Some("s3://charts/zdr"),
        )
        .unwrap();
        assert!(shared.is_shared());
        let words = shared.describe();
        assert!(words.contains("PostgreSQL at db:5432/zdr") && !words.contains("secret"));
        assert!(location(Some("mysql://x"), None).is_err());
        assert!(location(None, Some("gs://bucket")).is_err());
    }
}
