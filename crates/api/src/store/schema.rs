//! The database's schema, one source for SQLite and PostgreSQL: versions,
//! each the statements that make it from the one before. The few words the
//! two databases spell differently are written `{serial}` (a key that counts
//! up) and `{rowid}` (insertion order: SQLite keeps it on every table,
//! PostgreSQL gets a column of that name), and filled in per database.
//!
//! SQLite counts the versions run in `PRAGMA user_version`, PostgreSQL in
//! the table `zdr_schema`; either runs, at start, the versions it has not
//! had, each in a transaction with its count.

/// Which database a schema text is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// The versions, oldest first. Never edit one that has shipped: add one.
pub const MIGRATIONS: [&str; 6] = [
    TABLES,
    OBJECT_NAMES,
    DISPLAY_NAMES,
    UPLOADS,
    RATES,
    PREVIEWS,
];

/// The first version; it also describes the database of a host from before
/// versions were counted (hence `IF NOT EXISTS`).
const TABLES: &str = "
CREATE TABLE IF NOT EXISTS files (
    {rowid}
    tenant TEXT NOT NULL,
    file_id TEXT NOT NULL,
    file_name TEXT NOT NULL,
    key TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size BIGINT NOT NULL,
    cleaned_key TEXT NOT NULL,
    cleaned_context TEXT NOT NULL,
    schema_id TEXT NOT NULL,
    source TEXT,
    file_context TEXT,
    file_url TEXT,
    segment_id TEXT,
    private_index TEXT,
    prepend_schema_context BOOLEAN NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tenant, file_id)
);
CREATE TABLE IF NOT EXISTS private_indexes (
    {rowid}
    tenant TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    is_default BOOLEAN NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ontology_status TEXT NOT NULL,
    kg_elements_key TEXT,
    link_world_ontology BOOLEAN NOT NULL,
    PRIMARY KEY (tenant, id)
);
CREATE TABLE IF NOT EXISTS threads (
    {rowid}
    tenant TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    created BIGINT NOT NULL,
    title TEXT,
    metadata TEXT NOT NULL,
    PRIMARY KEY (tenant, thread_id)
);
CREATE TABLE IF NOT EXISTS thread_messages (
    seq {serial},
    tenant TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    created BIGINT NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_messages_of ON thread_messages (tenant, thread_id, seq);
CREATE TABLE IF NOT EXISTS saved_views (
    {rowid}
    tenant TEXT NOT NULL,
    view_id TEXT NOT NULL,
    reference_id TEXT,
    schema_id TEXT NOT NULL,
    name TEXT NOT NULL,
    card_type TEXT NOT NULL,
    query TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tenant, view_id)
);
CREATE TABLE IF NOT EXISTS cards (
    card_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    file_id TEXT NOT NULL,
    card_type TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    visualization_data TEXT NOT NULL,
    created_at TEXT NOT NULL
);
";

/// Files name their objects apart from the keys clients see; the objects
/// of files from before keep the names they were written under.
const OBJECT_NAMES: &str = "
ALTER TABLE files ADD COLUMN object TEXT;
ALTER TABLE files ADD COLUMN cleaned_object TEXT;
UPDATE files SET object = key, cleaned_object = cleaned_key;
";

/// A file's own name, given by its caller (`display_name`).
const DISPLAY_NAMES: &str = "ALTER TABLE files ADD COLUMN display_name TEXT;";

/// Forms handed out for a bucket: what the caller said of the file, kept
/// until the host takes the file in on first use.
const UPLOADS: &str = "
CREATE TABLE IF NOT EXISTS uploads (
    tenant TEXT NOT NULL,
    file_id TEXT NOT NULL,
    file_name TEXT NOT NULL,
    bucket_key TEXT NOT NULL,
    content_type TEXT NOT NULL,
    display_name TEXT,
    file_context TEXT,
    source TEXT,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (tenant, file_id)
);
";

/// Each key's token bucket where every replica sees it (PostgreSQL's; a
/// single host keeps its buckets in process): the tokens left at `at`,
/// seconds since the Unix epoch, and whether the last request had one.
const RATES: &str = "
CREATE TABLE IF NOT EXISTS rate_buckets (
    tenant TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    granted BOOLEAN NOT NULL
);
";

/// The pictures of cards drawn from data the service does not keep,
/// asked for with `image_ttl_minutes`: the object that holds the PNG,
/// the card's title for its page, and when both go.
const PREVIEWS: &str = "
CREATE TABLE IF NOT EXISTS previews (
    card_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    object TEXT NOT NULL,
    title TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS previews_by_expiry ON previews (expires_at);
";

/// A version's statements for `dialect`.
pub fn statements(migration: &str, dialect: Dialect) -> String {
    let (serial, rowid) = match dialect {
        Dialect::Sqlite => ("INTEGER PRIMARY KEY AUTOINCREMENT", ""),
        Dialect::Postgres => ("BIGSERIAL PRIMARY KEY", "rowid BIGSERIAL NOT NULL,"),
    };
    migration
        .replace("{serial}", serial)
        .replace("{rowid}", rowid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_word_is_filled_in() {
        for migration in MIGRATIONS {
            for dialect in [Dialect::Sqlite, Dialect::Postgres] {
                let text = statements(migration, dialect);
                assert!(!text.contains('{') && !text.contains('}'), "{text}");
            }
        }
    }
}
