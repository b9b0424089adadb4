//! What the API keeps, behind two traits, so that the rules never see how:
//! [`Rows`] of files, private indexes, threads, saved views and cards, in
//! SQLite ([`sqlite`], the default, under `--data-dir`) or PostgreSQL
//! ([`postgres`]); and [`Objects`] (files as uploaded, their cleaned
//! tables, an index's ontology) in a folder ([`folder`], the default) or an
//! S3-compatible bucket ([`bucket`]). `--database-url` and
//! `--object-store` choose each at start ([`open`]); the schema of both
//! databases comes from one source ([`schema`]).
//!
//! Objects are named by ids the store makes (`obj_…`), never by anything a
//! request carries: a key a client sees (`<file_id>/<name>`) is a label in
//! a row, and no two writes ever share an object, so a write can never
//! replace what another row points to.

pub mod bucket;
mod credentials;
pub mod folder;
mod open;
pub mod postgres;
mod postgres_tls;
pub mod schema;
pub mod sqlite;

use crate::keys::Tenant;

pub use open::{open, Database, Location};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("the database {path}: {message}")]
    Db { path: String, message: String },
    #[error("the bucket {bucket}: {message}")]
    Bucket { bucket: String, message: String },
    #[error("{0}")]
    Settings(String),
}

/// A file a tenant uploaded or connected, as its row holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct FileRow {
    pub file_id: String,
    pub file_name: String,
    /// The key clients see of the file as uploaded (`<file_id>/<file_name>`).
    pub key: String,
    /// The object that holds it, named by the store.
    pub object: String,
    pub content_type: String,
    pub size: i64,
    /// The key clients see of the cleaned table (CSV), and its object.
    pub cleaned_key: String,
    pub cleaned_object: String,
    /// What the cleaned table holds, in words.
    pub cleaned_context: String,
    /// The name the caller gave it (`display_name`), if any.
    pub display_name: Option<String>,
    pub schema_id: String,
    pub source: Option<String>,
    pub file_context: Option<String>,
    pub file_url: Option<String>,
    pub segment_id: Option<String>,
    pub private_index: Option<String>,
    pub prepend_schema_context: bool,
    pub created_at: String,
    pub updated_at: String,
}

/// A private index (spec 2.7) as its row holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub is_default: bool,
    pub created_at: String,
    pub updated_at: String,
    pub ontology_status: String,
    /// The object key of the index's ontology, once one is built.
    pub kg_elements_key: Option<String>,
    pub link_world_ontology: bool,
}

/// A thread (spec 2.8): `metadata` is JSON text.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadRow {
    pub thread_id: String,
    pub created: i64,
    pub title: Option<String>,
    pub metadata: String,
}

/// A message of a thread (spec 2.9): `content` is JSON text (its blocks).
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRow {
    pub message_id: String,
    pub created: i64,
    pub role: String,
    pub content: String,
}

/// A saved view: a chart recipe for a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewRow {
    pub view_id: String,
    pub reference_id: Option<String>,
    pub schema_id: String,
    pub name: String,
    pub card_type: String,
    /// Words naming the columns, as `visualize`'s query steers the cards.
    pub query: Option<String>,
    pub created_at: String,
}

/// A card made from a stored file (cards from CSV sent inline are never
/// stored).
#[derive(Debug, Clone, PartialEq)]
pub struct CardRow {
    pub card_id: String,
    pub tenant: String,
    pub file_id: String,
    pub card_type: String,
    pub title: String,
    pub description: String,
    pub visualization_data: String,
    pub created_at: String,
}

/// The picture of a card drawn from data the service does not keep, kept
/// until `expires_at` (RFC 3339) because its caller asked for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewRow {
    pub card_id: String,
    pub tenant: String,
    /// The object (of `tenant`) that holds the PNG.
    pub object: String,
    pub title: String,
    pub expires_at: String,
}

/// How storing a saved view went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewOutcome {
    Stored,
    TooMany,
    ReferenceTaken,
}

/// A form handed out for a bucket, kept until the host takes its file in.
#[derive(Debug, Clone, PartialEq)]
pub struct UploadRow {
    pub file_id: String,
    pub file_name: String,
    /// The object's key in the bucket, as the form fixes it.
    pub bucket_key: String,
    pub content_type: String,
    pub display_name: Option<String>,
    pub file_context: Option<String>,
    pub source: Option<String>,
    pub expires_at: String,
}

/// The columns of a file's row, in [`FileRow`]'s order, for both databases.
pub(crate) const FILE_COLUMNS: &str =
    "file_id, file_name, key, object, content_type, size, cleaned_key,
    cleaned_object, cleaned_context, schema_id, source, file_context, file_url, segment_id,
    private_index, prepend_schema_context, created_at, updated_at, display_name";

/// The columns of an index's row, in [`IndexRow`]'s order.
pub(crate) const INDEX_COLUMNS: &str = "id, name, description, is_default, created_at, updated_at,
    ontology_status, kg_elements_key, link_world_ontology";

/// The columns of a saved view's row, in [`ViewRow`]'s order.
pub(crate) const VIEW_COLUMNS: &str =
    "view_id, reference_id, schema_id, name, card_type, query, created_at";

/// Lists ask for one row past `limit`: its presence says another page exists.
pub(crate) fn one_page<T>(mut rows: Vec<T>, limit: u32) -> (Vec<T>, bool) {
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    (rows, more)
}

/// What the API keeps: its rows and its objects.
pub struct Store {
    pub rows: Box<dyn Rows>,
    pub objects: Box<dyn Objects>,
}

impl Store {
    /// Both are reachable (`/readyz`).
    pub fn ready(&self) -> Result<(), StoreError> {
        self.rows.ready()?;
        self.objects.ready()
    }
}

/// Where upload forms are posted, and what signs them.
pub enum Intake<'a> {
    /// This host's own `/upload/`, signed with its secret.
    Host(&'a [u8; 32]),
    /// Straight to the bucket, signed with its credentials.
    Bucket(&'a bucket::Bucket),
}

pub trait Objects: Send + Sync {
    /// Writes a new object whole or not at all, and names it.
    fn put_object(&self, tenant: &Tenant, bytes: &[u8]) -> Result<String, StoreError>;

    fn object(&self, tenant: &Tenant, name: &str) -> Result<Vec<u8>, StoreError>;

    /// An object's size, without reading it.
    fn object_len(&self, tenant: &Tenant, name: &str) -> Result<u64, StoreError>;

    /// Removes objects no row points to any more (a failed or refused
    /// write's, a replaced file's); one that is already gone is no error.
    fn delete_objects(&self, tenant: &Tenant, names: &[&str]) -> Result<(), StoreError>;

    /// Where upload forms go.
    fn intake(&self) -> Intake<'_>;

    /// The store answers.
    fn ready(&self) -> Result<(), StoreError>;
}

pub trait Rows: Send + Sync {
    /// The database answers.
    fn ready(&self) -> Result<(), StoreError>;

    /// Takes a token of `tenant`'s bucket where every replica sees it
    /// (`per_second` refilled, `burst` at most): `Ok(())`, or the whole
    /// seconds until one is there. `None` where the rows are this host's
    /// alone (its buckets are kept in process).
    fn take_token(
        &self,
        _tenant: &Tenant,
        _per_second: f64,
        _burst: f64,
    ) -> Option<Result<Result<(), u64>, StoreError>> {
        None
    }

    /// Inserts or replaces a file's row.
    fn put_file(&self, tenant: &Tenant, row: &FileRow) -> Result<(), StoreError>;

    /// Inserts a new file's row; false, and nothing written, when the
    /// tenant has a file of that id already.
    fn insert_file(&self, tenant: &Tenant, row: &FileRow) -> Result<bool, StoreError>;

    /// The newest file of this tenant with this name, if any.
    fn file_named(&self, tenant: &Tenant, file_name: &str) -> Result<Option<String>, StoreError>;

    fn file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, StoreError>;

    fn create_thread(&self, tenant: &Tenant, row: &ThreadRow) -> Result<(), StoreError>;

    fn thread(&self, tenant: &Tenant, id: &str) -> Result<Option<ThreadRow>, StoreError>;

    /// Up to `limit` threads, newest first, from after the thread `after`
    /// (none: from the newest); and whether more follow.
    fn threads(
        &self,
        tenant: &Tenant,
        after: Option<&str>,
        limit: u32,
    ) -> Result<(Vec<ThreadRow>, bool), StoreError>;

    fn add_messages(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        messages: &[MessageRow],
    ) -> Result<(), StoreError>;

    fn has_message(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        message_id: &str,
    ) -> Result<bool, StoreError>;

    /// Up to `limit` messages of a thread, oldest first, from after the
    /// message `after`; and whether more follow.
    fn messages(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        after: Option<&str>,
        limit: u32,
    ) -> Result<(Vec<MessageRow>, bool), StoreError>;

    /// Stores a view; `None` when the key has `max` views already or the
    /// reference id is taken.
    fn create_view(
        &self,
        tenant: &Tenant,
        row: &ViewRow,
        max: i64,
    ) -> Result<ViewOutcome, StoreError>;

    /// A key's views, oldest first: all, or the one of `view_id` or of
    /// `reference_id`.
    fn views(
        &self,
        tenant: &Tenant,
        view_id: Option<&str>,
        reference_id: Option<&str>,
    ) -> Result<Vec<ViewRow>, StoreError>;

    /// A new index; a tenant's first is its default.
    fn create_index(
        &self,
        tenant: &Tenant,
        name: &str,
        description: Option<&str>,
        status: &str,
    ) -> Result<IndexRow, StoreError>;

    /// Writes an index's row as it is now.
    fn put_index(&self, tenant: &Tenant, row: &IndexRow) -> Result<(), StoreError>;

    fn index(&self, tenant: &Tenant, id: &str) -> Result<Option<IndexRow>, StoreError>;

    /// `limit` of a tenant's indexes from `offset`, oldest first, and how
    /// many it has in all.
    fn indexes(
        &self,
        tenant: &Tenant,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<IndexRow>, u64), StoreError>;

    /// The files of an index: (file id, schema id, cleaned table's key,
    /// what the cleaned table holds), oldest first.
    fn index_files(
        &self,
        tenant: &Tenant,
        index: &str,
    ) -> Result<Vec<(String, String, String, String)>, StoreError>;

    fn put_cards(&self, cards: &[CardRow]) -> Result<(), StoreError>;

    /// A card by its id alone: card ids are random, and a card's page is
    /// shown to whoever has its address.
    fn card(&self, card_id: &str) -> Result<Option<CardRow>, StoreError>;

    /// Up to `limit` of a tenant's files, newest first.
    fn files(&self, tenant: &Tenant, limit: u32) -> Result<Vec<FileRow>, StoreError>;

    /// Deletes a file's row and the rows of the cards made from it, at
    /// once; the row it had (its objects are the caller's to remove).
    fn delete_file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, StoreError>;

    /// Keeps a form handed out for a bucket.
    fn put_upload(&self, tenant: &Tenant, row: &UploadRow) -> Result<(), StoreError>;

    fn upload(&self, tenant: &Tenant, file_id: &str) -> Result<Option<UploadRow>, StoreError>;

    /// The file id of the newest form handed out for a file of this name.
    fn upload_named(&self, tenant: &Tenant, file_name: &str) -> Result<Option<String>, StoreError>;

    /// Forgets a form whose file was taken in.
    fn drop_upload(&self, tenant: &Tenant, file_id: &str) -> Result<(), StoreError>;

    /// The key's forms not yet taken in, newest first, at most `limit`.
    fn pending_uploads(&self, tenant: &Tenant, limit: u32) -> Result<Vec<UploadRow>, StoreError>;

    /// Forms of any key that expired before `before` (RFC 3339), oldest
    /// first, at most `limit`.
    fn expired_uploads(
        &self,
        before: &str,
        limit: u32,
    ) -> Result<Vec<(Tenant, UploadRow)>, StoreError>;

    fn put_preview(&self, row: &PreviewRow) -> Result<(), StoreError>;

    /// A preview by its card's id alone, as a card is found.
    fn preview(&self, card_id: &str) -> Result<Option<PreviewRow>, StoreError>;

    /// Previews that expired before `before` (RFC 3339), oldest first, at
    /// most `limit`.
    fn expired_previews(&self, before: &str, limit: u32) -> Result<Vec<PreviewRow>, StoreError>;

    fn drop_preview(&self, card_id: &str) -> Result<(), StoreError>;

    /// How many previews `tenant` has kept, expired or not (until swept).
    fn preview_count(&self, tenant: &Tenant) -> Result<u64, StoreError>;
}
