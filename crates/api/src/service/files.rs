//! Files: the presigned upload (4.1) and what it lands as, the dataset file
//! (2.6), the file connector (4.4) and its list, a file's update, and its
//! delete, which removes every trace of its data.
//!
//! The key a form is signed for is `<file_id>/<file_name>`: the file id is
//! made when the form is, and the file is there under it (GET file,
//! visualize) once the upload lands. A form stores one file once.
//!
//! With a bucket (`--object-store s3://…`) the form is the bucket's own,
//! for `uploads/<tenant>/<file_id>/<file_name>`, and the bytes never pass
//! through a host: the first host asked for the file takes it in
//! ([`row`]), reads it under the same bounds, and keeps its own copy.

use std::collections::BTreeMap;
use std::sync::Arc;

use time::OffsetDateTime;

use crate::fetch::FetchError;
use crate::ids::{is_id, new_id, now_rfc3339};
use crate::model::file::{
    CleanedFile, DatasetFile, FileConnectorCreated, FileConnectorList, FileConnectorMetadata,
    FileFacts, FileUpdate, FileUploadUrl, SchemaRef,
};
use crate::sign::{self, Allowed};
use crate::store::bucket::Upload;
use crate::store::{FileRow, Intake, UploadRow};
use crate::table::{content_type_of, format_of, read};
use crate::work::{heavy, READ_MEMORY};
use crate::{blocking, Api, ApiError, Tenant, MAX_FILE};

/// Where the form is posted (not an API path: the spec posts it without a
/// key).
pub const UPLOAD_PATH: &str = "/upload/";

/// The connector's limit (spec section 8).
pub const MAX_CONNECTED: usize = 5 * 1024 * 1024;

/// Characters of a file name kept in the key.
const MAX_FILE_NAME: usize = 128;

/// The longest `display_name`, `file_context` and `source` a file keeps.
pub const MAX_FACT: usize = 2_000;

/// Files `GET file_connector` lists at most, newest first.
pub const MAX_LISTED: u32 = 1_000;

/// Form fields that carry what the caller said of the file, signed with
/// the form as S3 signs user metadata.
const META_DISPLAY_NAME: &str = "x-amz-meta-display-name";
const META_FILE_CONTEXT: &str = "x-amz-meta-file-context";
const META_SOURCE: &str = "x-amz-meta-source";

/// A file name as the key holds it: its last path segment, with anything
/// but letters, digits, `.`, `-` and `_` made `_`.
pub fn clean_name(given: &str) -> Result<String, ApiError> {
    let last = given.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let clean: String = last
        .chars()
        .take(MAX_FILE_NAME)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() || clean.starts_with('.') {
        return Err(ApiError::invalid(
            "file_name",
            "file_name must name a file, e.g. file_name=sales.csv",
        ));
    }
    Ok(clean)
}

fn format_or_refusal(name: &str) -> Result<&'static str, ApiError> {
    format_of(name).ok_or_else(|| {
        ApiError::invalid(
            "file_name",
            format!("{name}: the formats are .csv, .xls, .xlsx and .parquet"),
        )
    })
}

/// 4.1: a form signed for one new file of `tenant`: for this host's
/// `/upload/`, or for the bucket itself.
pub async fn upload_form(
    api: &Api,
    tenant: &Tenant,
    base: &str,
    file_name: &str,
    facts: &FileFacts,
) -> Result<FileUploadUrl, ApiError> {
    let name = clean_name(file_name)?;
    let format = format_or_refusal(&name)?;
    let content_type = content_type_of(format);
    let store = api.store().await?;
    let file_id = new_id("file");
    let key = format!("{file_id}/{name}");
    let meta: Vec<(&'static str, String)> = [
        (META_DISPLAY_NAME, &facts.display_name),
        (META_FILE_CONTEXT, &facts.file_context),
        (META_SOURCE, &facts.source),
    ]
    .into_iter()
    .filter_map(|(field, value)| value.clone().map(|v| (field, v)))
    .collect();
    let now = OffsetDateTime::now_utc();
    let (url, form, pending) = match store.objects.intake() {
        Intake::Host(secret) => {
            let form = sign::form(secret, &tenant.0, &key, content_type, MAX_FILE, &meta, now);
            (format!("{base}{UPLOAD_PATH}"), form, None)
        }
        Intake::Bucket(bucket) => {
            let bucket_key = bucket.upload_key(tenant, &file_id, &name);
            let form = bucket
                .form(&bucket_key, content_type, MAX_FILE, &meta, now)
                .await
                .map_err(ApiError::internal)?;
            let pending = UploadRow {
                file_id: file_id.clone(),
                file_name: name.clone(),
                bucket_key,
                content_type: content_type.to_owned(),
                display_name: facts.display_name.clone(),
                file_context: facts.file_context.clone(),
                source: facts.source.clone(),
                expires_at: (now + sign::VALID_FOR)
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default(),
            };
            (bucket.form_url().to_owned(), form, Some(pending))
        }
    };
    if let Some(pending) = pending {
        let t = tenant.clone();
        blocking(api, move |store| store.rows.put_upload(&t, &pending)).await?;
    }
    let fields: BTreeMap<String, String> = form
        .fields
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect();
    Ok(FileUploadUrl {
        url,
        fields,
        key,
        file_id,
    })
}

/// A key as this host makes them, `<file id>/<file name>`, split; `None`
/// for anything else, however it was signed: a key never becomes a path,
/// and one with `..`, a leading `/`, a backslash, a NUL or a control
/// character is not even looked at.
pub fn key_parts(key: &str) -> Option<(&str, &str)> {
    if key.contains("..")
        || key.starts_with('/')
        || key.contains('\\')
        || key.chars().any(char::is_control)
    {
        return None;
    }
    let (file_id, name) = key.split_once('/')?;
    let made = is_id(file_id)
        && file_id.starts_with("file_")
        && clean_name(name).is_ok_and(|clean| clean == name)
        && format_of(name).is_some();
    made.then_some((file_id, name))
}

/// The key clients see of a file's cleaned table: never one an upload
/// can have (those are two segments), whatever the upload is called.
fn cleaned_key(file_id: &str, name: &str) -> String {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    format!("{file_id}/cleaned/{stem}.csv")
}

/// 4.1 step 2: the posted form's fields, checked as S3 checks them, and its
/// file, stored once.
pub async fn receive(
    api: &Arc<Api>,
    fields: &[(String, String)],
    file: Option<Vec<u8>>,
) -> Result<FileRow, ApiError> {
    let store = api.store().await?;
    let Intake::Host(secret) = store.objects.intake() else {
        return Err(ApiError::UploadRefused(
            "this host's uploads go straight to its bucket: post the form to the url that file_upload_url gives".into(),
        ));
    };
    let allowed: Allowed =
        sign::verify(secret, fields, OffsetDateTime::now_utc()).map_err(ApiError::UploadRefused)?;
    if !api.keys()?.has_tenant(&allowed.tenant) {
        return Err(ApiError::UploadRefused(
            "the form was signed for a key this host no longer has".into(),
        ));
    }
    let (file_id, name) = key_parts(&allowed.key).ok_or_else(|| {
        ApiError::UploadRefused(
            "the form's key is not one this host hands out (<file id>/<file name>)".into(),
        )
    })?;
    let tenant = Tenant(allowed.tenant.clone());
    // A form stores one file once: a second post changes nothing.
    if let Ok(stored) = row(api, &tenant, file_id).await {
        return Err(used(&stored));
    }
    let file = file.ok_or_else(|| ApiError::invalid("file", "the form has no file part"))?;
    let size = file.len() as u64;
    if size < allowed.min_size || size > allowed.max_size {
        return Err(ApiError::UploadRefused(format!(
            "the file is {size} bytes; the policy allows {} to {}",
            allowed.min_size, allowed.max_size
        )));
    }
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let facts = FileFacts {
        display_name: field(META_DISPLAY_NAME),
        file_context: field(META_FILE_CONTEXT),
        source: field(META_SOURCE),
    };
    let stored = store_file(
        api,
        &tenant,
        file_id,
        name,
        &allowed.content_type,
        file,
        Stored::New(facts),
    )
    .await?;
    tracing::info!(file_id = %stored.file_id, size, "api: upload stored");
    Ok(stored)
}

/// The 409 of a form used before.
fn used(stored: &FileRow) -> ApiError {
    ApiError::Conflict(format!(
        "this upload form was used already: file {} was stored from it at {}; ask file_upload_url for a new form to upload another file",
        stored.file_id, stored.created_at
    ))
}

/// What a stored file replaces: nothing (a new file, with what its caller
/// said of it), or the file of the same id.
pub enum Stored {
    New(FileFacts),
    Replacing(Box<FileRow>),
}

/// Reads the file into a clean table through the host's admission, then
/// writes the file, the table and the row, in that order (a crash between
/// leaves objects that no row names, never a row without its objects). A
/// new file's row is inserted only if its id is free (else 409, and its
/// objects are removed); a replaced file's row keeps its creation time and
/// its objects are removed.
pub async fn store_file(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: &str,
    name: &str,
    content_type: &str,
    bytes: Vec<u8>,
    stored: Stored,
) -> Result<FileRow, ApiError> {
    let format = format_or_refusal(name)?;
    // The file, its cleaned CSV (no larger than the table's text bound)
    // and the reading itself.
    let memory = READ_MEMORY + 2 * bytes.len();
    let label = name.to_owned();
    let (bytes, cleaned, context, schema_id) = heavy(api, memory, move |stop| {
        let table = read(format, &bytes, stop).map_err(|e| ApiError::unreadable(&label, e))?;
        stop.check().map_err(|_| ApiError::Deadline(0))?;
        let cleaned = table.to_csv();
        Ok((bytes, cleaned, table.context(), table.schema_id()))
    })
    .await?;
    let tenant = tenant.clone();
    let (file_id, name, content_type) =
        (file_id.to_owned(), name.to_owned(), content_type.to_owned());
    let outcome = blocking(api, move |store| {
        let object = store.objects.put_object(&tenant, &bytes)?;
        let cleaned_object = store.objects.put_object(&tenant, cleaned.as_bytes())?;
        let now = now_rfc3339();
        let mut row = FileRow {
            key: format!("{file_id}/{name}"),
            cleaned_key: cleaned_key(&file_id, &name),
            file_id,
            file_name: name,
            object,
            content_type,
            size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
            cleaned_object,
            cleaned_context: context,
            schema_id,
            created_at: now.clone(),
            updated_at: now,
            display_name: None,
            source: None,
            file_context: None,
            file_url: None,
            segment_id: None,
            private_index: None,
            prepend_schema_context: true,
        };
        match &stored {
            Stored::Replacing(previous) => {
                row.created_at = previous.created_at.clone();
                row.display_name = previous.display_name.clone();
                row.source = previous.source.clone();
                row.file_context = previous.file_context.clone();
                row.file_url = previous.file_url.clone();
                row.segment_id = previous.segment_id.clone();
                row.private_index = previous.private_index.clone();
                row.prepend_schema_context = previous.prepend_schema_context;
                store.rows.put_file(&tenant, &row)?;
                store
                    .objects
                    .delete_objects(&tenant, &[&previous.object, &previous.cleaned_object])?;
                Ok(Ok(row))
            }
            Stored::New(facts) => {
                row.display_name = facts.display_name.clone();
                row.file_context = facts.file_context.clone();
                row.source = facts.source.clone();
                if store.rows.insert_file(&tenant, &row)? {
                    Ok(Ok(row))
                } else {
                    store
                        .objects
                        .delete_objects(&tenant, &[&row.object, &row.cleaned_object])?;
                    Ok(Err(store.rows.file(&tenant, &row.file_id)?))
                }
            }
        }
    })
    .await?;
    match outcome {
        Ok(row) => Ok(row),
        Err(Some(other)) => Err(used(&other)),
        Err(None) => Err(ApiError::internal("a file row was taken and is gone")),
    }
}

/// The file of `file_id` for this key, or 404 (another key's answers as
/// one that does not exist).
pub async fn row(api: &Arc<Api>, tenant: &Tenant, file_id: &str) -> Result<FileRow, ApiError> {
    if !is_id(file_id) {
        return Err(ApiError::FileNotFound(file_id.chars().take(64).collect()));
    }
    let (t, id) = (tenant.clone(), file_id.to_owned());
    if let Some(row) = blocking(api, move |store| store.rows.file(&t, &id)).await? {
        return Ok(row);
    }
    if let Some(row) = take_in(api, tenant, file_id).await? {
        return Ok(row);
    }
    // Another host may have taken it in, and removed its upload, between
    // the first look and this one.
    let (t, id) = (tenant.clone(), file_id.to_owned());
    blocking(api, move |store| store.rows.file(&t, &id))
        .await?
        .ok_or_else(|| ApiError::FileNotFound(file_id.to_owned()))
}

/// A file posted straight to the bucket, taken in on its first use: read
/// no further than the form allowed, read as a table under the host's
/// admission, and stored as the host's own copy, after which the upload
/// and its form are done with. `None` while nothing was posted. Two hosts
/// taking the same file in at once store it once: the row is inserted
/// only where there is none, and the other's copy is removed.
async fn take_in(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: &str,
) -> Result<Option<FileRow>, ApiError> {
    let (t, id) = (tenant.clone(), file_id.to_owned());
    let Some(upload) = blocking(api, move |store| store.rows.upload(&t, &id)).await? else {
        return Ok(None);
    };
    let key = upload.bucket_key.clone();
    let posted = blocking(api, move |store| match store.objects.intake() {
        Intake::Bucket(bucket) => bucket.take_upload(&key, MAX_FILE as u64).map(Some),
        Intake::Host(_) => Ok(None),
    })
    .await?;
    let bytes = match posted {
        None | Some(Upload::Missing) => return Ok(None),
        Some(Upload::TooLarge(size)) => {
            forget_upload(api, tenant, upload).await?;
            return Err(ApiError::UploadRefused(format!(
                "the file posted is {size} bytes; the form allowed at most {MAX_FILE}"
            )));
        }
        Some(Upload::Bytes(bytes)) if bytes.is_empty() => {
            forget_upload(api, tenant, upload).await?;
            return Err(ApiError::UploadRefused(
                "the file posted is empty; the form allowed 1 byte or more".into(),
            ));
        }
        Some(Upload::Bytes(bytes)) => bytes,
    };
    let size = bytes.len();
    let facts = FileFacts {
        display_name: upload.display_name.clone(),
        file_context: upload.file_context.clone(),
        source: upload.source.clone(),
    };
    let stored = store_file(
        api,
        tenant,
        file_id,
        &upload.file_name,
        &upload.content_type,
        bytes,
        Stored::New(facts),
    )
    .await;
    let stored = match stored {
        Ok(row) => row,
        // Another host took it in first.
        Err(ApiError::Conflict(_)) => {
            let (t, id) = (tenant.clone(), file_id.to_owned());
            return blocking(api, move |store| store.rows.file(&t, &id)).await;
        }
        // Refused for what it is, as an upload to this host is refused:
        // nothing is kept, and the file is not found from then on.
        Err(refused @ (ApiError::Unreadable(_) | ApiError::Invalid { .. })) => {
            forget_upload(api, tenant, upload).await?;
            return Err(refused);
        }
        // The host was busy or failed: the upload stays, to be taken in
        // when it is next asked for.
        Err(other) => return Err(other),
    };
    forget_upload(api, tenant, upload).await?;
    tracing::info!(file_id, size, "api: upload taken in from the bucket");
    Ok(Some(stored))
}

/// A key's forms looked at when its files are listed, at most: a file
/// posted straight to the bucket is listed on any replica.
const MAX_PENDING: u32 = 20;

/// Expired forms swept at once, at most (the next sweep takes the rest).
const SWEEP_BATCH: u32 = 200;

/// Takes in the files the key posted to the bucket and no host has taken
/// in yet, so that a listing shows them on any replica; a form not posted
/// is left for its expiry.
async fn take_in_pending(api: &Arc<Api>, tenant: &Tenant) {
    let t = tenant.clone();
    let pending = match blocking(api, move |store| {
        store.rows.pending_uploads(&t, MAX_PENDING)
    })
    .await
    {
        Ok(pending) => pending,
        Err(error) => {
            return tracing::warn!("api: the forms handed out could not be read: {error}")
        }
    };
    for upload in pending {
        if let Err(error) = take_in(api, tenant, &upload.file_id).await {
            tracing::info!(
                file_id = upload.file_id,
                "api: an upload not taken in: {error}"
            );
        }
    }
}

/// Sweeps the forms that expired before `before`: a file posted with one
/// is taken in (it is the key's), a form never posted is forgotten, any
/// upload it left removed. How many were forgotten.
pub async fn sweep_uploads(
    api: &Arc<Api>,
    before: time::OffsetDateTime,
) -> Result<usize, ApiError> {
    let cut = crate::ids::rfc3339(before);
    let expired = blocking(api, move |store| {
        store.rows.expired_uploads(&cut, SWEEP_BATCH)
    })
    .await?;
    let mut forgotten = 0;
    for (tenant, upload) in expired {
        match take_in(api, &tenant, &upload.file_id).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                forget_upload(api, &tenant, upload).await?;
                forgotten += 1;
            }
            // Refused for what it is: take_in forgot it already.
            Err(error) => tracing::info!(
                file_id = upload.file_id,
                "api: an expired upload refused: {error}"
            ),
        }
    }
    if forgotten > 0 {
        tracing::info!(forgotten, "api: forms past their expiry swept");
    }
    Ok(forgotten)
}

/// Removes an upload from the bucket, then its form's row.
async fn forget_upload(api: &Arc<Api>, tenant: &Tenant, upload: UploadRow) -> Result<(), ApiError> {
    let t = tenant.clone();
    blocking(api, move |store| {
        if let Intake::Bucket(bucket) = store.objects.intake() {
            bucket.remove_upload(&upload.bucket_key)?;
        }
        store.rows.drop_upload(&t, &upload.file_id)
    })
    .await
}

/// 2.6.
pub fn dataset_file(row: &FileRow, base_url: &str) -> DatasetFile {
    let stem = row
        .file_name
        .rsplit_once('.')
        .map_or(row.file_name.as_str(), |(stem, _)| stem);
    DatasetFile {
        file_id: row.file_id.clone(),
        cleaned_files: vec![CleanedFile {
            key: row.cleaned_key.clone(),
            cleaned_file_id: format!("{}-cleaned", row.file_id),
            cleaned_context: row.cleaned_context.clone(),
            file_url: format!("{base_url}/api/v1/beta/files/{}/cleaned/", row.file_id),
            file_context: row.file_context.clone().unwrap_or_default(),
            created_at: row.updated_at.clone(),
            updated_at: row.updated_at.clone(),
        }],
        cleaned: true,
        last_updated_at: row.updated_at.clone(),
        key: row.key.clone(),
        schema: SchemaRef {
            schema_id: row.schema_id.clone(),
            display_name: row.display_name.clone().unwrap_or_else(|| stem.to_owned()),
        },
        file_url: row.file_url.clone(),
        file_context: row.file_context.clone(),
        segment_id: row.segment_id.clone(),
        source: row.source.clone(),
        connected_private_index: row.private_index.clone(),
    }
}

/// The cleaned table of a file, as CSV.
pub async fn cleaned(api: &Arc<Api>, tenant: &Tenant, file_id: &str) -> Result<Vec<u8>, ApiError> {
    let row = row(api, tenant, file_id).await?;
    let t = tenant.clone();
    blocking(api, move |store| {
        store.objects.object(&t, &row.cleaned_object)
    })
    .await
}

/// `PATCH files/{file_id}/`: the members sent, and only those, change.
pub async fn update(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: &str,
    update: FileUpdate,
) -> Result<FileRow, ApiError> {
    let mut row = row(api, tenant, file_id).await?;
    if let Some(display_name) = update.display_name {
        row.display_name = display_name;
    }
    if let Some(file_context) = update.file_context {
        row.file_context = file_context;
    }
    if let Some(source) = update.source {
        row.source = source;
    }
    row.updated_at = now_rfc3339();
    let (t, saved) = (tenant.clone(), row.clone());
    blocking(api, move |store| store.rows.put_file(&t, &saved)).await?;
    Ok(row)
}

/// `DELETE files/{file_id}/`: the file's row and its cards' rows at once,
/// then its objects (the file as uploaded, its cleaned table), then its
/// index's ontology made again without it. Its cards' pages and images
/// answer 404 from then on, and so does the file.
pub async fn delete(api: &Arc<Api>, tenant: &Tenant, file_id: &str) -> Result<(), ApiError> {
    if !is_id(file_id) {
        return Err(ApiError::FileNotFound(file_id.chars().take(64).collect()));
    }
    let (t, id) = (tenant.clone(), file_id.to_owned());
    let gone = blocking(api, move |store| {
        let row = store.rows.delete_file(&t, &id)?;
        if let Some(row) = &row {
            store
                .objects
                .delete_objects(&t, &[&row.object, &row.cleaned_object])?;
        }
        Ok(row)
    })
    .await?;
    let Some(gone) = gone else {
        // Posted to the bucket and never used: removed unread.
        let (t, id) = (tenant.clone(), file_id.to_owned());
        let upload = blocking(api, move |store| store.rows.upload(&t, &id))
            .await?
            .ok_or_else(|| ApiError::FileNotFound(file_id.to_owned()))?;
        forget_upload(api, tenant, upload).await?;
        tracing::info!(file_id, "api: upload deleted before it was used");
        return Ok(());
    };
    if let Some(index) = gone.private_index {
        super::ontology::rebuild_ontology(api, tenant, &index).await?;
    }
    tracing::info!(file_id, "api: file deleted");
    Ok(())
}

/// 2.5.
pub fn metadata(row: &FileRow, ontology_state: &str) -> FileConnectorMetadata {
    FileConnectorMetadata {
        id: row.file_id.clone(),
        created_at: row.created_at.clone(),
        updated_at: row.updated_at.clone(),
        source: row.source.clone().unwrap_or_default(),
        schema_id: row.schema_id.clone(),
        file_context: row.file_context.clone().unwrap_or_default(),
        prepend_schema_context: row.prepend_schema_context,
        segment_id: row.segment_id.clone().unwrap_or_default(),
        ontology_state: ontology_state.to_owned(),
    }
}

/// The ontology state a listed file shows: its ontology is its schema.
const LISTED_ONTOLOGY: &str = "schema";

/// `GET file_connector`: the key's files (newest first, at most
/// [`MAX_LISTED`]), or the one of `file_id`.
pub async fn list(
    api: &Arc<Api>,
    tenant: &Tenant,
    file_id: Option<&str>,
) -> Result<FileConnectorList, ApiError> {
    let rows = match file_id {
        Some(id) => vec![row(api, tenant, id).await?],
        None => {
            take_in_pending(api, tenant).await;
            let t = tenant.clone();
            blocking(api, move |store| store.rows.files(&t, MAX_LISTED)).await?
        }
    };
    Ok(FileConnectorList {
        files: rows.iter().map(|r| metadata(r, LISTED_ONTOLOGY)).collect(),
    })
}

/// What a client asks to connect: 4.4's body, or one entry of 4.7's `files`.
#[derive(Debug, Clone)]
pub struct Connect {
    pub file_url: String,
    pub file_id: Option<String>,
    pub facts: FileFacts,
    pub segment_id: Option<String>,
    pub private_index: Option<String>,
    pub prepend_schema_context: bool,
}

/// Downloads, reads and stores one file; true when it replaced the file of
/// the id given.
pub async fn connect_file(
    api: &Arc<Api>,
    tenant: &Tenant,
    request: Connect,
) -> Result<(FileRow, bool), ApiError> {
    let Connect {
        file_url,
        file_id: given_id,
        facts,
        segment_id,
        private_index,
        prepend_schema_context: prepend,
    } = request;
    let previous = match &given_id {
        Some(id) => {
            if !is_id(id) {
                return Err(ApiError::invalid(
                    "file_id",
                    "file_id must be 1 to 64 letters, digits, '_' or '-'",
                ));
            }
            row(api, tenant, id).await.ok()
        }
        None => None,
    };
    super::ontology::connected(api, tenant, private_index.as_deref()).await?;
    let file_id = given_id.unwrap_or_else(|| new_id("file"));

    let parsed = url::Url::parse(&file_url)
        .map_err(|e| ApiError::invalid("file_url", format!("file_url is not a URL: {e}")))?;
    let name = parsed
        .path_segments()
        .and_then(|mut s| s.next_back())
        .map(|s| {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
                .take(MAX_FILE_NAME)
                .collect::<String>()
        })
        .filter(|s| !s.is_empty() && !s.starts_with('.'))
        .unwrap_or_else(|| "file.csv".into());
    let format = format_of(&name).ok_or_else(|| {
        ApiError::invalid(
            "file_url",
            format!("{name}: the file's name must end in .csv, .xls, .xlsx or .parquet"),
        )
    })?;
    let (bytes, _, _held) = api
        .fetcher()?
        .get(&file_url, MAX_CONNECTED, &api.lanes.bodies)
        .await
        .map_err(|e| match e {
            FetchError::TooLarge(limit) => ApiError::TooLarge {
                what: "the file at file_url".into(),
                limit,
            },
            FetchError::Busy => ApiError::Busy,
            other => ApiError::invalid("file_url", other.to_string()),
        })?;
    let stored = match previous.clone() {
        Some(previous) => Stored::Replacing(Box::new(previous)),
        None => Stored::New(FileFacts::default()),
    };
    let mut row = store_file(
        api,
        tenant,
        &file_id,
        &name,
        content_type_of(format),
        bytes,
        stored,
    )
    .await?;
    // The connector's own fields, as given now (a repeated call may change them).
    row.file_url = Some(file_url);
    row.display_name = facts.display_name.or(row.display_name);
    row.source = facts.source.or(row.source);
    row.file_context = facts.file_context.or(row.file_context);
    row.segment_id = segment_id.or(row.segment_id);
    row.private_index = private_index.or(row.private_index);
    row.prepend_schema_context = prepend;
    let (t, saved) = (tenant.clone(), row.clone());
    blocking(api, move |store| store.rows.put_file(&t, &saved)).await?;
    Ok((row, previous.is_some()))
}

/// 4.4's answer for a connected file.
pub fn connected_answer(
    row: &FileRow,
    replaced: bool,
    ontology_state: &str,
) -> FileConnectorCreated {
    let url = row.file_url.clone().unwrap_or_default();
    let message = if replaced {
        format!("file {} replaced by a new copy of {url}", row.file_id)
    } else {
        format!("file {} connected: a copy of {url} is stored", row.file_id)
    };
    FileConnectorCreated {
        message,
        id: row.file_id.clone(),
        metadata: metadata(row, ontology_state),
    }
}

/// `POST files` with JSON (4.2): the file a `file_name` names, by its key
/// or, else, the newest upload of that name.
pub async fn named(api: &Arc<Api>, tenant: &Tenant, name: &str) -> Result<FileRow, ApiError> {
    if let Some((id, _)) = name.split_once('/') {
        if let Ok(row) = row(api, tenant, id).await {
            if row.key == name {
                return Ok(row);
            }
        }
    }
    let wanted = clean_name(name).unwrap_or_else(|_| name.to_owned());
    // A file of that name posted to the bucket since: taken in now.
    let (t, w) = (tenant.clone(), wanted.clone());
    if let Some(id) = blocking(api, move |store| store.rows.upload_named(&t, &w)).await? {
        if let Some(row) = take_in(api, tenant, &id).await? {
            return Ok(row);
        }
    }
    let t = tenant.clone();
    let id = blocking(api, move |store| store.rows.file_named(&t, &wanted))
        .await?
        .ok_or_else(|| {
            ApiError::FileNotFound(format!(
                "{} (upload it first through file_upload_url)",
                name.chars().take(200).collect::<String>()
            ))
        })?;
    row(api, tenant, &id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_keys_this_host_makes_are_taken() {
        let id = "file_0123456789abcdef01234567";
        assert_eq!(
            key_parts(&format!("{id}/sales.csv")),
            Some((id, "sales.csv"))
        );
        for bad in [
            "file_zz/../../../x.csv".to_owned(),
            format!("/{id}/sales.csv"),
            format!("{id}/../sales.csv"),
            format!("{id}/a\\b.csv"),
            format!("{id}/a\0.csv"),
            format!("{id}/a\nb.csv"),
            format!("{id}/sub/sales.csv"),
            format!("{id}/sales.exe"),
            format!("{id}/.csv"),
            "obj_1/sales.csv".to_owned(),
            "sales.csv".to_owned(),
        ] {
            assert_eq!(key_parts(&bad), None, "{bad:?}");
        }
        assert_ne!(cleaned_key(id, "cleaned.csv"), format!("{id}/cleaned.csv"));
    }
}
