//! The rows in SQLite (`zdr.sqlite3` under `--data-dir`, or the file a
//! `sqlite://` URL names), one connection in WAL mode. Rows are written
//! after their objects, in a transaction. The schema is migrated at start,
//! by version (`PRAGMA user_version`), from [`super::schema`].

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

use super::schema::{self, Dialect, MIGRATIONS};
use super::{
    one_page, CardRow, FileRow, IndexRow, MessageRow, PreviewRow, Rows, StoreError, ThreadRow,
    UploadRow, ViewOutcome, ViewRow, FILE_COLUMNS, INDEX_COLUMNS, VIEW_COLUMNS,
};
use crate::ids::new_id;
use crate::keys::Tenant;

pub struct Sqlite {
    path: PathBuf,
    db: Mutex<Connection>,
}

fn thread_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ThreadRow> {
    Ok(ThreadRow {
        thread_id: r.get(0)?,
        created: r.get(1)?,
        title: r.get(2)?,
        metadata: r.get(3)?,
    })
}

fn index_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<IndexRow> {
    Ok(IndexRow {
        id: r.get(0)?,
        name: r.get(1)?,
        description: r.get(2)?,
        is_default: r.get(3)?,
        created_at: r.get(4)?,
        updated_at: r.get(5)?,
        ontology_status: r.get(6)?,
        kg_elements_key: r.get(7)?,
        link_world_ontology: r.get(8)?,
    })
}

fn view_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ViewRow> {
    Ok(ViewRow {
        view_id: r.get(0)?,
        reference_id: r.get(1)?,
        schema_id: r.get(2)?,
        name: r.get(3)?,
        card_type: r.get(4)?,
        query: r.get(5)?,
        created_at: r.get(6)?,
    })
}

impl Sqlite {
    pub fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let db_error = |source: rusqlite::Error| StoreError::Db {
            path: path.display().to_string(),
            message: source.to_string(),
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::Io {
                path: parent.display().to_string(),
                source,
            })?;
        }
        let db = Connection::open(path).map_err(db_error)?;
        db.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;",
        )
        .map_err(db_error)?;
        migrate(&db).map_err(db_error)?;
        Ok(Sqlite {
            path: path.to_path_buf(),
            db: Mutex::new(db),
        })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable:
        // every write is one statement or one transaction.
        self.db
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn db_error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Db {
            path: self.path.display().to_string(),
            message: source.to_string(),
        }
    }

    fn write_file(&self, tenant: &Tenant, row: &FileRow, verb: &str) -> Result<usize, StoreError> {
        let db = self.db();
        db.execute(
            &format!(
                "{verb} INTO files (tenant, {FILE_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)"
            ),
            params![
                tenant.0,
                row.file_id,
                row.file_name,
                row.key,
                row.object,
                row.content_type,
                row.size,
                row.cleaned_key,
                row.cleaned_object,
                row.cleaned_context,
                row.schema_id,
                row.source,
                row.file_context,
                row.file_url,
                row.segment_id,
                row.private_index,
                row.prepend_schema_context,
                row.created_at,
                row.updated_at,
                row.display_name,
            ],
        )
        .map_err(|e| self.db_error(e))
    }
}

fn file_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<FileRow> {
    Ok(FileRow {
        file_id: r.get(0)?,
        file_name: r.get(1)?,
        key: r.get(2)?,
        object: r.get(3)?,
        content_type: r.get(4)?,
        size: r.get(5)?,
        cleaned_key: r.get(6)?,
        cleaned_object: r.get(7)?,
        cleaned_context: r.get(8)?,
        schema_id: r.get(9)?,
        source: r.get(10)?,
        file_context: r.get(11)?,
        file_url: r.get(12)?,
        segment_id: r.get(13)?,
        private_index: r.get(14)?,
        prepend_schema_context: r.get(15)?,
        created_at: r.get(16)?,
        updated_at: r.get(17)?,
        display_name: r.get(18)?,
    })
}

impl Sqlite {
    fn write_index(
        &self,
        db: &Connection,
        tenant: &Tenant,
        row: &IndexRow,
    ) -> Result<(), StoreError> {
        db.execute(
            &format!(
                "INSERT OR REPLACE INTO private_indexes (tenant, {INDEX_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
            ),
            params![
                tenant.0,
                row.id,
                row.name,
                row.description,
                row.is_default,
                row.created_at,
                row.updated_at,
                row.ontology_status,
                row.kg_elements_key,
                row.link_world_ontology,
            ],
        )
        .map_err(|e| self.db_error(e))?;
        Ok(())
    }
}

impl Rows for Sqlite {
    fn files(&self, tenant: &Tenant, limit: u32) -> Result<Vec<FileRow>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(&format!(
                "SELECT {FILE_COLUMNS} FROM files WHERE tenant = ?1
                 ORDER BY created_at DESC, rowid DESC LIMIT ?2"
            ))
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![tenant.0, limit], file_row)
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok(rows)
    }

    fn delete_file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, StoreError> {
        let mut db = self.db();
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        let row = tx
            .query_row(
                &format!("SELECT {FILE_COLUMNS} FROM files WHERE tenant = ?1 AND file_id = ?2"),
                params![tenant.0, file_id],
                file_row,
            )
            .optional()
            .map_err(|e| self.db_error(e))?;
        if row.is_some() {
            tx.execute(
                "DELETE FROM cards WHERE tenant = ?1 AND file_id = ?2",
                params![tenant.0, file_id],
            )
            .map_err(|e| self.db_error(e))?;
            tx.execute(
                "DELETE FROM files WHERE tenant = ?1 AND file_id = ?2",
                params![tenant.0, file_id],
            )
            .map_err(|e| self.db_error(e))?;
        }
        tx.commit().map_err(|e| self.db_error(e))?;
        Ok(row)
    }

    fn ready(&self) -> Result<(), StoreError> {
        self.db()
            .query_row("SELECT 1", [], |_| Ok(()))
            .map_err(|e| self.db_error(e))
    }

    fn put_file(&self, tenant: &Tenant, row: &FileRow) -> Result<(), StoreError> {
        self.write_file(tenant, row, "INSERT OR REPLACE")
            .map(|_| ())
    }

    fn insert_file(&self, tenant: &Tenant, row: &FileRow) -> Result<bool, StoreError> {
        self.write_file(tenant, row, "INSERT OR IGNORE")
            .map(|changed| changed == 1)
    }

    fn file_named(&self, tenant: &Tenant, file_name: &str) -> Result<Option<String>, StoreError> {
        let db = self.db();
        db.query_row(
            "SELECT file_id FROM files WHERE tenant = ?1 AND file_name = ?2
             ORDER BY updated_at DESC, rowid DESC LIMIT 1",
            params![tenant.0, file_name],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| self.db_error(e))
    }

    fn file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, StoreError> {
        let db = self.db();
        db.query_row(
            &format!("SELECT {FILE_COLUMNS} FROM files WHERE tenant = ?1 AND file_id = ?2"),
            params![tenant.0, file_id],
            file_row,
        )
        .optional()
        .map_err(|e| self.db_error(e))
    }

    fn create_thread(&self, tenant: &Tenant, row: &ThreadRow) -> Result<(), StoreError> {
        self.db()
            .execute(
                "INSERT INTO threads (tenant, thread_id, created, title, metadata)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    tenant.0,
                    row.thread_id,
                    row.created,
                    row.title,
                    row.metadata
                ],
            )
            .map_err(|e| self.db_error(e))?;
        Ok(())
    }

    fn thread(&self, tenant: &Tenant, id: &str) -> Result<Option<ThreadRow>, StoreError> {
        self.db()
            .query_row(
                "SELECT thread_id, created, title, metadata FROM threads
                 WHERE tenant = ?1 AND thread_id = ?2",
                params![tenant.0, id],
                thread_row,
            )
            .optional()
            .map_err(|e| self.db_error(e))
    }

    fn threads(
        &self,
        tenant: &Tenant,
        after: Option<&str>,
        limit: u32,
    ) -> Result<(Vec<ThreadRow>, bool), StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(
                "SELECT thread_id, created, title, metadata FROM threads WHERE tenant = ?1
                 AND (?2 IS NULL OR rowid < (SELECT rowid FROM threads WHERE tenant = ?1 AND thread_id = ?2))
                 ORDER BY rowid DESC LIMIT ?3",
            )
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![tenant.0, after, i64::from(limit) + 1], thread_row)
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok(one_page(rows, limit))
    }

    fn add_messages(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        messages: &[MessageRow],
    ) -> Result<(), StoreError> {
        let mut db = self.db();
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        for m in messages {
            tx.execute(
                "INSERT INTO thread_messages (tenant, thread_id, message_id, created, role, content)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![tenant.0, thread_id, m.message_id, m.created, m.role, m.content],
            )
            .map_err(|e| self.db_error(e))?;
        }
        tx.commit().map_err(|e| self.db_error(e))
    }

    fn has_message(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        message_id: &str,
    ) -> Result<bool, StoreError> {
        self.db()
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM thread_messages
                 WHERE tenant = ?1 AND thread_id = ?2 AND message_id = ?3)",
                params![tenant.0, thread_id, message_id],
                |r| r.get(0),
            )
            .map_err(|e| self.db_error(e))
    }

    fn messages(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        after: Option<&str>,
        limit: u32,
    ) -> Result<(Vec<MessageRow>, bool), StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(
                "SELECT message_id, created, role, content FROM thread_messages
                 WHERE tenant = ?1 AND thread_id = ?2
                 AND (?3 IS NULL OR seq > (SELECT seq FROM thread_messages
                     WHERE tenant = ?1 AND thread_id = ?2 AND message_id = ?3))
                 ORDER BY seq LIMIT ?4",
            )
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(
                params![tenant.0, thread_id, after, i64::from(limit) + 1],
                |r| {
                    Ok(MessageRow {
                        message_id: r.get(0)?,
                        created: r.get(1)?,
                        role: r.get(2)?,
                        content: r.get(3)?,
                    })
                },
            )
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok(one_page(rows, limit))
    }

    fn create_view(
        &self,
        tenant: &Tenant,
        row: &ViewRow,
        max: i64,
    ) -> Result<ViewOutcome, StoreError> {
        let mut db = self.db();
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        let (count, taken): (i64, bool) = tx
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(reference_id IS NOT NULL AND reference_id = ?2), 0) > 0
                 FROM saved_views WHERE tenant = ?1",
                params![tenant.0, row.reference_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.db_error(e))?;
        if count >= max {
            return Ok(ViewOutcome::TooMany);
        }
        if taken {
            return Ok(ViewOutcome::ReferenceTaken);
        }
        tx.execute(
            &format!(
                "INSERT INTO saved_views (tenant, {VIEW_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
            ),
            params![
                tenant.0,
                row.view_id,
                row.reference_id,
                row.schema_id,
                row.name,
                row.card_type,
                row.query,
                row.created_at
            ],
        )
        .map_err(|e| self.db_error(e))?;
        tx.commit().map_err(|e| self.db_error(e))?;
        Ok(ViewOutcome::Stored)
    }

    fn views(
        &self,
        tenant: &Tenant,
        view_id: Option<&str>,
        reference_id: Option<&str>,
    ) -> Result<Vec<ViewRow>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(&format!(
                "SELECT {VIEW_COLUMNS} FROM saved_views WHERE tenant = ?1
                 AND (?2 IS NULL OR view_id = ?2) AND (?3 IS NULL OR reference_id = ?3)
                 ORDER BY created_at, rowid"
            ))
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![tenant.0, view_id, reference_id], view_row)
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok(rows)
    }

    fn create_index(
        &self,
        tenant: &Tenant,
        name: &str,
        description: Option<&str>,
        status: &str,
    ) -> Result<IndexRow, StoreError> {
        let mut db = self.db();
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        let others: i64 = tx
            .query_row(
                "SELECT COUNT(*) FROM private_indexes WHERE tenant = ?1",
                params![tenant.0],
                |r| r.get(0),
            )
            .map_err(|e| self.db_error(e))?;
        let now = crate::ids::now_rfc3339();
        let row = IndexRow {
            id: new_id("pidx"),
            name: name.to_owned(),
            description: description.map(str::to_owned),
            is_default: others == 0,
            created_at: now.clone(),
            updated_at: now,
            ontology_status: status.to_owned(),
            kg_elements_key: None,
            link_world_ontology: false,
        };
        self.write_index(&tx, tenant, &row)?;
        tx.commit().map_err(|e| self.db_error(e))?;
        Ok(row)
    }

    fn put_index(&self, tenant: &Tenant, row: &IndexRow) -> Result<(), StoreError> {
        let db = self.db();
        self.write_index(&db, tenant, row)
    }

    fn index(&self, tenant: &Tenant, id: &str) -> Result<Option<IndexRow>, StoreError> {
        let db = self.db();
        db.query_row(
            &format!("SELECT {INDEX_COLUMNS} FROM private_indexes WHERE tenant = ?1 AND id = ?2"),
            params![tenant.0, id],
            index_row,
        )
        .optional()
        .map_err(|e| self.db_error(e))
    }

    fn indexes(
        &self,
        tenant: &Tenant,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<IndexRow>, u64), StoreError> {
        let db = self.db();
        let total: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM private_indexes WHERE tenant = ?1",
                params![tenant.0],
                |r| r.get(0),
            )
            .map_err(|e| self.db_error(e))?;
        let mut statement = db
            .prepare(&format!(
                "SELECT {INDEX_COLUMNS} FROM private_indexes WHERE tenant = ?1
                 ORDER BY created_at, rowid LIMIT ?2 OFFSET ?3"
            ))
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(
                params![
                    tenant.0,
                    i64::try_from(limit).unwrap_or(i64::MAX),
                    i64::try_from(offset).unwrap_or(i64::MAX)
                ],
                index_row,
            )
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok((rows, u64::try_from(total).unwrap_or(0)))
    }

    fn index_files(
        &self,
        tenant: &Tenant,
        index: &str,
    ) -> Result<Vec<(String, String, String, String)>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(
                "SELECT file_id, schema_id, cleaned_key, cleaned_context FROM files
                 WHERE tenant = ?1 AND private_index = ?2 ORDER BY created_at, rowid",
            )
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![tenant.0, index], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok(rows)
    }

    fn put_cards(&self, cards: &[CardRow]) -> Result<(), StoreError> {
        let mut db = self.db();
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        for card in cards {
            tx.execute(
                "INSERT OR REPLACE INTO cards (card_id, tenant, file_id, card_type, title, description,
                    visualization_data, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    card.card_id,
                    card.tenant,
                    card.file_id,
                    card.card_type,
                    card.title,
                    card.description,
                    card.visualization_data,
                    card.created_at,
                ],
            )
            .map_err(|e| self.db_error(e))?;
        }
        tx.commit().map_err(|e| self.db_error(e))
    }

    fn put_upload(&self, tenant: &Tenant, row: &UploadRow) -> Result<(), StoreError> {
        self.db()
            .execute(
                "INSERT OR REPLACE INTO uploads (tenant, file_id, file_name, bucket_key, content_type,
                    display_name, file_context, source, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    tenant.0,
                    row.file_id,
                    row.file_name,
                    row.bucket_key,
                    row.content_type,
                    row.display_name,
                    row.file_context,
                    row.source,
                    row.expires_at
                ],
            )
            .map_err(|e| self.db_error(e))?;
        Ok(())
    }

    fn upload(&self, tenant: &Tenant, file_id: &str) -> Result<Option<UploadRow>, StoreError> {
        self.db()
            .query_row(
                "SELECT file_id, file_name, bucket_key, content_type, display_name, file_context,
                    source, expires_at FROM uploads WHERE tenant = ?1 AND file_id = ?2",
                params![tenant.0, file_id],
                |r| {
                    Ok(UploadRow {
                        file_id: r.get(0)?,
                        file_name: r.get(1)?,
                        bucket_key: r.get(2)?,
                        content_type: r.get(3)?,
                        display_name: r.get(4)?,
                        file_context: r.get(5)?,
                        source: r.get(6)?,
                        expires_at: r.get(7)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.db_error(e))
    }

    fn upload_named(&self, tenant: &Tenant, file_name: &str) -> Result<Option<String>, StoreError> {
        self.db()
            .query_row(
                "SELECT file_id FROM uploads WHERE tenant = ?1 AND file_name = ?2
                 ORDER BY expires_at DESC, rowid DESC LIMIT 1",
                params![tenant.0, file_name],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.db_error(e))
    }

    fn pending_uploads(&self, tenant: &Tenant, limit: u32) -> Result<Vec<UploadRow>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(&format!(
                "SELECT {UPLOAD_COLUMNS} FROM uploads WHERE tenant = ?1
                 ORDER BY expires_at DESC, rowid DESC LIMIT ?2"
            ))
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![tenant.0, limit], |r| upload_of(r, 0))
            .map_err(|e| self.db_error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db_error(e))
    }

    fn expired_uploads(
        &self,
        before: &str,
        limit: u32,
    ) -> Result<Vec<(Tenant, UploadRow)>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(&format!(
                "SELECT tenant, {UPLOAD_COLUMNS} FROM uploads WHERE expires_at < ?1
                 ORDER BY expires_at LIMIT ?2"
            ))
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![before, limit], |r| {
                Ok((Tenant(r.get(0)?), upload_of(r, 1)?))
            })
            .map_err(|e| self.db_error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db_error(e))
    }

    fn drop_upload(&self, tenant: &Tenant, file_id: &str) -> Result<(), StoreError> {
        self.db()
            .execute(
                "DELETE FROM uploads WHERE tenant = ?1 AND file_id = ?2",
                params![tenant.0, file_id],
            )
            .map_err(|e| self.db_error(e))?;
        Ok(())
    }

    fn put_preview(&self, row: &PreviewRow) -> Result<(), StoreError> {
        self.db()
            .execute(
                "INSERT INTO previews (card_id, tenant, object, title, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    row.card_id,
                    row.tenant,
                    row.object,
                    row.title,
                    row.expires_at
                ],
            )
            .map_err(|e| self.db_error(e))?;
        Ok(())
    }

    fn preview(&self, card_id: &str) -> Result<Option<PreviewRow>, StoreError> {
        self.db()
            .query_row(
                &format!("SELECT {PREVIEW_COLUMNS} FROM previews WHERE card_id = ?1"),
                params![card_id],
                preview_of,
            )
            .optional()
            .map_err(|e| self.db_error(e))
    }

    fn expired_previews(&self, before: &str, limit: u32) -> Result<Vec<PreviewRow>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare(&format!(
                "SELECT {PREVIEW_COLUMNS} FROM previews WHERE expires_at < ?1
                 ORDER BY expires_at LIMIT ?2"
            ))
            .map_err(|e| self.db_error(e))?;
        let rows = statement
            .query_map(params![before, limit], preview_of)
            .map_err(|e| self.db_error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db_error(e))
    }

    fn drop_preview(&self, card_id: &str) -> Result<(), StoreError> {
        self.db()
            .execute("DELETE FROM previews WHERE card_id = ?1", params![card_id])
            .map_err(|e| self.db_error(e))?;
        Ok(())
    }

    fn preview_count(&self, tenant: &Tenant) -> Result<u64, StoreError> {
        let count: i64 = self
            .db()
            .query_row(
                "SELECT COUNT(*) FROM previews WHERE tenant = ?1",
                params![tenant.0],
                |r| r.get(0),
            )
            .map_err(|e| self.db_error(e))?;
        Ok(count.max(0).unsigned_abs())
    }

    fn card(&self, card_id: &str) -> Result<Option<CardRow>, StoreError> {
        let db = self.db();
        db.query_row(
            "SELECT card_id, tenant, file_id, card_type, title, description, visualization_data, created_at
             FROM cards WHERE card_id = ?1",
            params![card_id],
            |r| {
                Ok(CardRow {
                    card_id: r.get(0)?,
                    tenant: r.get(1)?,
                    file_id: r.get(2)?,
                    card_type: r.get(3)?,
                    title: r.get(4)?,
                    description: r.get(5)?,
                    visualization_data: r.get(6)?,
                    created_at: r.get(7)?,
                })
            },
        )
        .optional()
        .map_err(|e| self.db_error(e))
    }
}

/// Runs the migrations the database has not had yet, each in a
/// transaction with its new version.
fn migrate(db: &Connection) -> rusqlite::Result<()> {
    let done: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let done = usize::try_from(done).unwrap_or(0);
    for (version, migration) in MIGRATIONS.iter().enumerate().skip(done) {
        let statements = schema::statements(migration, Dialect::Sqlite);
        db.execute_batch(&format!(
            "BEGIN; {statements} PRAGMA user_version = {}; COMMIT;",
            version + 1
        ))?;
    }
    Ok(())
}

/// The columns of an upload's row, in [`UploadRow`]'s order.
const UPLOAD_COLUMNS: &str =
    "file_id, file_name, bucket_key, content_type, display_name, file_context, source, expires_at";

/// An upload's row from its columns, the first at `at`.
fn upload_of(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<UploadRow> {
    Ok(UploadRow {
        file_id: r.get(at)?,
        file_name: r.get(at + 1)?,
        bucket_key: r.get(at + 2)?,
        content_type: r.get(at + 3)?,
        display_name: r.get(at + 4)?,
        file_context: r.get(at + 5)?,
        source: r.get(at + 6)?,
        expires_at: r.get(at + 7)?,
    })
}

/// The columns of a preview's row, in [`PreviewRow`]'s order.
const PREVIEW_COLUMNS: &str = "card_id, tenant, object, title, expires_at";

fn preview_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<PreviewRow> {
    Ok(PreviewRow {
        card_id: r.get(0)?,
        tenant: r.get(1)?,
        object: r.get(2)?,
        title: r.get(3)?,
        expires_at: r.get(4)?,
    })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::store::folder::{is_object_name, Folder};
    use crate::store::Objects;
    use std::fs;

    #[test]
    fn a_data_folder_from_before_object_names_is_migrated_and_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // The database and object folder as a host before versions wrote them.
        let db = Connection::open(root.join("zdr.sqlite3")).unwrap();
        db.execute_batch(&schema::statements(MIGRATIONS[0], Dialect::Sqlite))
            .unwrap();
        db.execute(
            "INSERT INTO files VALUES ('t_1', 'file_1', 'a.csv', 'file_1/a.csv', 'text/csv', 4,
             'file_1/cleaned.csv', '1 rows', 'schema_1', NULL, NULL, NULL, NULL, NULL, 1,
             '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
            [],
        )
        .unwrap();
        drop(db);
        let folder = root.join("objects/t_1/file_1");
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("a.csv"), "a\n1\n").unwrap();
        fs::write(folder.join("cleaned.csv"), "a\n1\n").unwrap();

        let rows = Sqlite::open(&root.join("zdr.sqlite3")).unwrap();
        let objects = Folder::open(root).unwrap();
        let tenant = Tenant("t_1".into());
        let row = rows.file(&tenant, "file_1").unwrap().unwrap();
        assert_eq!(
            (row.object.as_str(), row.cleaned_object.as_str()),
            ("file_1/a.csv", "file_1/cleaned.csv")
        );
        assert_eq!(
            objects.object(&tenant, &row.cleaned_object).unwrap(),
            b"a\n1\n"
        );
        drop(rows);
        // Opened again, nothing runs twice.
        let rows = Sqlite::open(&root.join("zdr.sqlite3")).unwrap();
        let version: i64 = rows
            .db()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);

        // New objects are named by the store, and no name a request could
        // carry becomes a path.
        let name = objects.put_object(&tenant, b"x").unwrap();
        assert!(name.starts_with("obj_") && is_object_name(&name));
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "a\\b",
            "a/b/c",
            "",
            ".",
            "a\0b",
        ] {
            assert!(!is_object_name(bad), "{bad:?}");
            assert!(objects.object(&tenant, bad).is_err(), "{bad:?}");
        }
    }
}
