//! API keys and their tenants. A key is never stored or logged: the
//! tenant is named by a digest of it (`t_` and 16 hex digits of SHA-256),
//! which is what the database and the object folder hold.

use std::collections::HashMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::ids::hex;

/// Keys shorter than this are refused at start: they would be guessable.
pub const MIN_KEY_LEN: usize = 16;

/// One tenant of the API: everything it stores is under this id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tenant(pub String);

#[derive(Debug, Default)]
pub struct Keys {
    by_digest: HashMap<[u8; 32], Tenant>,
}

impl Keys {
    /// The keys of `--api-key`/`ZDR_API_KEYS` and of `--api-keys-file`.
    pub fn load(given: &[String], file: Option<&Path>) -> Result<Keys, String> {
        let mut keys = Keys::default();
        for key in given {
            keys.add(key.trim(), "--api-key")?;
        }
        if let Some(file) = file {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("--api-keys-file {}: {e}", file.display()))?;
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    keys.add(line, &format!("{} line {}", file.display(), n + 1))?;
                }
            }
        }
        Ok(keys)
    }

    fn add(&mut self, key: &str, from: &str) -> Result<(), String> {
        if key.is_empty() {
            return Ok(());
        }
        if key.len() < MIN_KEY_LEN || !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "an API key ({from}) must be at least {MIN_KEY_LEN} printable ASCII characters without spaces"
            ));
        }
        let digest: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        let tenant = Tenant(format!("t_{}", hex(&digest[..8])));
        self.by_digest.insert(digest, tenant);
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.by_digest.is_empty()
    }

    pub fn len(&self) -> usize {
        self.by_digest.len()
    }

    pub fn tenant(&self, key: &str) -> Option<&Tenant> {
        let digest: [u8; 32] = Sha256::digest(key.trim().as_bytes()).into();
        self.by_digest.get(&digest)
    }

    /// Is this one of the tenants the keys name (for a signed upload)?
    pub fn has_tenant(&self, tenant: &str) -> bool {
        self.by_digest.values().any(|t| t.0 == tenant)
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_from_flags_and_files_and_name_tenants_by_digest() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("keys");
        std::fs::write(&file, "# demo\n\nfile-key-0123456789\n").unwrap_or_else(|e| panic!("{e}"));
        let keys = Keys::load(&["flag-key-0123456789".into()], Some(&file))
            .unwrap_or_else(|e| panic!("{e}"));
        let a = keys.tenant("flag-key-0123456789").cloned();
        let b = keys.tenant("file-key-0123456789").cloned();
        assert!(a.is_some() && b.is_some() && a != b);
        assert!(keys.tenant("other-key-0123456789").is_none());
        assert!(!a
            .unwrap_or_else(|| Tenant(String::new()))
            .0
            .contains("flag"));
        assert!(Keys::load(&["short".into()], None).is_err());
        assert!(Keys::load(&["has a space in it 123".into()], None).is_err());
    }
}
