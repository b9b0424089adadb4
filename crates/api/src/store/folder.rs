//! Objects in a folder (`objects/<tenant>/…`), beside the secret that signs
//! this host's own upload forms (`upload-secret`). Objects are written to
//! `tmp/` and renamed into place, so a file is there whole or not at all;
//! whatever a killed process left in `tmp/` is removed on the next start.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Intake, Objects, StoreError};
use crate::ids::{hex, new_id};
use crate::keys::Tenant;

pub struct Folder {
    root: PathBuf,
    secret: [u8; 32],
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError {
    let path = path.display().to_string();
    move |source| StoreError::Io { path, source }
}

impl Folder {
    pub fn open(root: &Path) -> Result<Folder, StoreError> {
        for dir in [root.to_path_buf(), root.join("objects"), root.join("tmp")] {
            fs::create_dir_all(&dir).map_err(io(&dir))?;
        }
        // Left by a process killed in the middle of a write.
        let tmp = root.join("tmp");
        for entry in fs::read_dir(&tmp).map_err(io(&tmp))?.flatten() {
            let _ = fs::remove_file(entry.path());
        }
        Ok(Folder {
            secret: secret(root)?,
            root: root.to_path_buf(),
        })
    }

    fn object_path(&self, tenant: &Tenant, name: &str) -> Result<PathBuf, StoreError> {
        if !is_object_name(name) || !is_object_name(&tenant.0) {
            return Err(StoreError::Io {
                path: name.chars().take(80).collect(),
                source: std::io::Error::other("not an object name this store makes"),
            });
        }
        Ok(self.root.join("objects").join(&tenant.0).join(name))
    }
}

impl Objects for Folder {
    fn put_object(&self, tenant: &Tenant, bytes: &[u8]) -> Result<String, StoreError> {
        let name = new_id("obj");
        let target = self.object_path(tenant, &name)?;
        let tmp = self.root.join("tmp").join(new_id("obj"));
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(io(parent))?;
        }
        let mut file = fs::File::create(&tmp).map_err(io(&tmp))?;
        file.write_all(bytes).map_err(io(&tmp))?;
        file.sync_all().map_err(io(&tmp))?;
        drop(file);
        fs::rename(&tmp, &target).map_err(io(&target))?;
        if let Some(parent) = target.parent() {
            // The rename itself survives a crash once its folder is synced.
            if let Ok(dir) = fs::File::open(parent) {
                let _ = dir.sync_all();
            }
        }
        Ok(name)
    }

    fn object(&self, tenant: &Tenant, name: &str) -> Result<Vec<u8>, StoreError> {
        let path = self.object_path(tenant, name)?;
        fs::read(&path).map_err(io(&path))
    }

    fn object_len(&self, tenant: &Tenant, name: &str) -> Result<u64, StoreError> {
        let path = self.object_path(tenant, name)?;
        fs::metadata(&path).map(|m| m.len()).map_err(io(&path))
    }

    fn delete_objects(&self, tenant: &Tenant, names: &[&str]) -> Result<(), StoreError> {
        for name in names {
            // A name that is no object name was never written by this
            // store, and never becomes a path: there is nothing to remove.
            let Ok(path) = self.object_path(tenant, name) else {
                continue;
            };
            match fs::remove_file(&path) {
                Err(source) if source.kind() != std::io::ErrorKind::NotFound => {
                    return Err(StoreError::Io {
                        path: path.display().to_string(),
                        source,
                    })
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn intake(&self) -> Intake<'_> {
        Intake::Host(&self.secret)
    }

    fn ready(&self) -> Result<(), StoreError> {
        let objects = self.root.join("objects");
        fs::metadata(&objects).map(|_| ()).map_err(io(&objects))
    }
}

/// A name this store made for an object (`obj_…`), or, for a file stored
/// before objects had such names, the key it was written under
/// (`<file_id>/<name>`): plain segments, none of them `.` or `..`. Anything
/// else never becomes a path.
pub(crate) fn is_object_name(name: &str) -> bool {
    let segments: Vec<&str> = name.split('/').collect();
    (1..=2).contains(&segments.len())
        && segments.iter().all(|s| {
            !s.is_empty()
                && s.len() <= 200
                && *s != "."
                && *s != ".."
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        })
}

/// The upload-signing secret: made once, then read at every start, so
/// forms signed before a restart still verify.
fn secret(root: &Path) -> Result<[u8; 32], StoreError> {
    let path = root.join("upload-secret");
    let io = |source| StoreError::Io {
        path: path.display().to_string(),
        source,
    };
    if let Ok(text) = fs::read_to_string(&path) {
        if let Some(secret) = parse_hex32(text.trim()) {
            return Ok(secret);
        }
    }
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| io(std::io::Error::other(e.to_string())))?;
    let tmp = root.join("tmp").join("upload-secret");
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp).map_err(io)?;
    file.write_all(hex(&secret).as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)?;
    fs::rename(&tmp, &path).map_err(io)?;
    Ok(secret)
}

fn parse_hex32(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}
