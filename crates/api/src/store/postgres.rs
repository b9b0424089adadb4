//! The rows in PostgreSQL (`--database-url postgres://…`), through a pool
//! of tokio-postgres connections, so that any number of hosts share them.
//!
//! The [`Rows`] trait is called on the runtime's blocking threads (see
//! `crate::blocking`); each call runs its queries on the runtime it was
//! opened on and waits for them there. Writes that check before they
//! insert (a key's first index is its default, a key's views are counted)
//! hold a transaction-scoped advisory lock of the key, so two hosts cannot
//! both pass the check. The schema comes from [`super::schema`]; hosts
//! starting at once migrate one after the other under a session lock.

use std::future::Future;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio::runtime::Handle;
use tokio_postgres::Row;

use super::schema::{self, Dialect, MIGRATIONS};
use super::{
    one_page, CardRow, FileRow, IndexRow, MessageRow, PreviewRow, Rows, StoreError, ThreadRow,
    UploadRow, ViewOutcome, ViewRow, FILE_COLUMNS, INDEX_COLUMNS, VIEW_COLUMNS,
};
use crate::ids::{new_id, now_rfc3339};
use crate::keys::Tenant;

/// How long a call waits for a connection of the pool, or for a new one.
const WAIT: Duration = Duration::from_secs(10);

/// The key of the session lock under which a host migrates the schema.
const MIGRATION_LOCK: i64 = 0x7a64_7273_6368;

pub struct Postgres {
    pool: Pool,
    runtime: Handle,
    /// The URL without its password, for messages.
    label: String,
}

/// Anything that failed on the way to or in the database.
type Failure = Box<dyn std::error::Error + Send + Sync>;

impl Postgres {
    /// Connects (at most `pool_size` connections at once) and brings the
    /// schema up to date.
    pub fn open(url: &str, pool_size: usize, runtime: Handle) -> Result<Postgres, StoreError> {
        let label = without_password(url);
        let fail = |message: String| StoreError::Db {
            path: label.clone(),
            message,
        };
        let (url, tls) = super::postgres_tls::split(url).map_err(&fail)?;
        let mut config: tokio_postgres::Config = url.parse().map_err(|e| {
            fail(format!(
                "{e} (expected postgres://user:password@host:port/database)"
            ))
        })?;
        config.ssl_mode(tls.ssl_mode());
        let manager = Manager::from_config(
            config,
            tls.connector().map_err(&fail)?,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .recycle_timeout(Some(WAIT))
            .build()
            .map_err(|e| fail(e.to_string()))?;
        let store = Postgres {
            pool,
            runtime,
            label: label.clone(),
        };
        store.run(migrate(&store.pool)).map_err(hinted)?;
        Ok(store)
    }

    /// Runs `work` on the runtime and waits for it (on a blocking thread).
    fn run<T>(&self, work: impl Future<Output = Result<T, Failure>>) -> Result<T, StoreError> {
        self.runtime.block_on(work).map_err(|e| StoreError::Db {
            path: self.label.clone(),
            message: message(e.as_ref()),
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, Failure> {
        Ok(self.pool.get().await?)
    }

    async fn one_file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, Failure> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!("SELECT {FILE_COLUMNS} FROM files WHERE tenant = $1 AND file_id = $2"),
                &[&tenant.0, &file_id],
            )
            .await?;
        row.map(|r| file_row(&r)).transpose()
    }

    async fn write_index(
        client: &impl tokio_postgres::GenericClient,
        tenant: &Tenant,
        row: &IndexRow,
    ) -> Result<(), Failure> {
        client
            .execute(
                &format!(
                    "INSERT INTO private_indexes (tenant, {INDEX_COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                     ON CONFLICT (tenant, id) DO UPDATE SET name = EXCLUDED.name,
                        description = EXCLUDED.description, is_default = EXCLUDED.is_default,
                        created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
                        ontology_status = EXCLUDED.ontology_status,
                        kg_elements_key = EXCLUDED.kg_elements_key,
                        link_world_ontology = EXCLUDED.link_world_ontology"
                ),
                &[
                    &tenant.0,
                    &row.id,
                    &row.name,
                    &row.description,
                    &row.is_default,
                    &row.created_at,
                    &row.updated_at,
                    &row.ontology_status,
                    &row.kg_elements_key,
                    &row.link_world_ontology,
                ],
            )
            .await?;
        Ok(())
    }
}

/// The error and its causes: tokio-postgres says "db error" and keeps the
/// server's message in its source.
fn message(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text = format!("{text}: {said}");
        }
        cause = inner.source();
    }
    text
}

/// A failure to connect, with what to do about its commonest causes.
fn hinted(error: StoreError) -> StoreError {
    let StoreError::Db { path, message } = error else {
        return error;
    };
    let hint = if message.contains("UnknownIssuer") {
        "; the server's certificate is not signed by a CA of sslrootcert (or of the system's roots without it)"
    } else if message.contains("NotValidForName") {
        "; the server's certificate does not name this host: connect by a name it gives, or ask sslmode=verify-ca"
    } else if message.contains("no encryption") {
        "; the server takes TLS only: add sslmode=verify-full (or require) to the URL"
    } else {
        ""
    };
    StoreError::Db {
        path,
        message: format!("{message}{hint}"),
    }
}

fn without_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() {
                let _ = parsed.set_password(Some("***"));
            }
            parsed.to_string()
        }
        Err(_) => "the PostgreSQL database".to_owned(),
    }
}

/// Runs the versions the database has not had, one host at a time.
async fn migrate(pool: &Pool) -> Result<(), Failure> {
    let mut client = pool.get().await?;
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    let outcome = async {
        client
            .batch_execute("CREATE TABLE IF NOT EXISTS zdr_schema (version BIGINT NOT NULL)")
            .await?;
        let done: i64 = client
            .query_one("SELECT COALESCE(MAX(version), 0) FROM zdr_schema", &[])
            .await?
            .try_get(0)?;
        let done = usize::try_from(done).unwrap_or(0);
        for (version, migration) in MIGRATIONS.iter().enumerate().skip(done) {
            let tx = client.transaction().await?;
            tx.batch_execute(&schema::statements(migration, Dialect::Postgres))
                .await?;
            let version = i64::try_from(version + 1).unwrap_or(i64::MAX);
            tx.execute("INSERT INTO zdr_schema (version) VALUES ($1)", &[&version])
                .await?;
            tx.commit().await?;
        }
        Ok::<(), Failure>(())
    }
    .await;
    client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
        .await?;
    outcome
}

fn file_row(r: &Row) -> Result<FileRow, Failure> {
    Ok(FileRow {
        file_id: r.try_get(0)?,
        file_name: r.try_get(1)?,
        key: r.try_get(2)?,
        object: r.try_get(3)?,
        content_type: r.try_get(4)?,
        size: r.try_get(5)?,
        cleaned_key: r.try_get(6)?,
        cleaned_object: r.try_get(7)?,
        cleaned_context: r.try_get(8)?,
        schema_id: r.try_get(9)?,
        source: r.try_get(10)?,
        file_context: r.try_get(11)?,
        file_url: r.try_get(12)?,
        segment_id: r.try_get(13)?,
        private_index: r.try_get(14)?,
        prepend_schema_context: r.try_get(15)?,
        created_at: r.try_get(16)?,
        updated_at: r.try_get(17)?,
        display_name: r.try_get(18)?,
    })
}

fn index_row(r: &Row) -> Result<IndexRow, Failure> {
    Ok(IndexRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        description: r.try_get(2)?,
        is_default: r.try_get(3)?,
        created_at: r.try_get(4)?,
        updated_at: r.try_get(5)?,
        ontology_status: r.try_get(6)?,
        kg_elements_key: r.try_get(7)?,
        link_world_ontology: r.try_get(8)?,
    })
}

fn thread_row(r: &Row) -> Result<ThreadRow, Failure> {
    Ok(ThreadRow {
        thread_id: r.try_get(0)?,
        created: r.try_get(1)?,
        title: r.try_get(2)?,
        metadata: r.try_get(3)?,
    })
}

fn view_row(r: &Row) -> Result<ViewRow, Failure> {
    Ok(ViewRow {
        view_id: r.try_get(0)?,
        reference_id: r.try_get(1)?,
        schema_id: r.try_get(2)?,
        name: r.try_get(3)?,
        card_type: r.try_get(4)?,
        query: r.try_get(5)?,
        created_at: r.try_get(6)?,
    })
}

fn all<T>(rows: &[Row], each: fn(&Row) -> Result<T, Failure>) -> Result<Vec<T>, Failure> {
    rows.iter().map(each).collect()
}

/// The advisory lock of one kind of check for one key, held to the end of
/// the transaction.
async fn lock(
    tx: &deadpool_postgres::Transaction<'_>,
    kind: &str,
    tenant: &Tenant,
) -> Result<(), Failure> {
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext($1))",
        &[&format!("{kind}:{}", tenant.0)],
    )
    .await?;
    Ok(())
}

impl Postgres {
    async fn write_file(
        &self,
        tenant: &Tenant,
        row: &FileRow,
        replace: bool,
    ) -> Result<u64, Failure> {
        let on_conflict = if replace {
            "ON CONFLICT (tenant, file_id) DO UPDATE SET file_name = EXCLUDED.file_name,
                key = EXCLUDED.key, object = EXCLUDED.object, content_type = EXCLUDED.content_type,
                size = EXCLUDED.size, cleaned_key = EXCLUDED.cleaned_key,
                cleaned_object = EXCLUDED.cleaned_object, cleaned_context = EXCLUDED.cleaned_context,
                schema_id = EXCLUDED.schema_id, source = EXCLUDED.source,
                file_context = EXCLUDED.file_context, file_url = EXCLUDED.file_url,
                segment_id = EXCLUDED.segment_id, private_index = EXCLUDED.private_index,
                prepend_schema_context = EXCLUDED.prepend_schema_context,
                created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
                display_name = EXCLUDED.display_name"
        } else {
            "ON CONFLICT (tenant, file_id) DO NOTHING"
        };
        let client = self.client().await?;
        Ok(client
            .execute(
                &format!(
                    "INSERT INTO files (tenant, {FILE_COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
                     {on_conflict}"
                ),
                &[
                    &tenant.0,
                    &row.file_id,
                    &row.file_name,
                    &row.key,
                    &row.object,
                    &row.content_type,
                    &row.size,
                    &row.cleaned_key,
                    &row.cleaned_object,
                    &row.cleaned_context,
                    &row.schema_id,
                    &row.source,
                    &row.file_context,
                    &row.file_url,
                    &row.segment_id,
                    &row.private_index,
                    &row.prepend_schema_context,
                    &row.created_at,
                    &row.updated_at,
                    &row.display_name,
                ],
            )
            .await?)
    }
}

/// One key's token bucket, taken in one statement: the row is locked by
/// the upsert, so replicas taking at once are served one after the other;
/// the tokens are refilled for the seconds since, up to the burst, and one
/// taken when there is one.
const TAKE_TOKEN: &str = "
INSERT INTO rate_buckets AS b (tenant, tokens, at, granted)
VALUES ($1, $3::float8 - 1, EXTRACT(EPOCH FROM clock_timestamp()), true)
ON CONFLICT (tenant) DO UPDATE SET
    tokens = LEAST($3::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp()) - b.at) * $2::float8)
        - CASE WHEN LEAST($3::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp()) - b.at) * $2::float8) >= 1
          THEN 1 ELSE 0 END,
    granted = LEAST($3::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM clock_timestamp()) - b.at) * $2::float8) >= 1,
    at = EXTRACT(EPOCH FROM clock_timestamp())
RETURNING tokens, granted";

impl Rows for Postgres {
    fn ready(&self) -> Result<(), StoreError> {
        self.run(async {
            self.client().await?.query_one("SELECT 1", &[]).await?;
            Ok(())
        })
    }

    fn take_token(
        &self,
        tenant: &Tenant,
        per_second: f64,
        burst: f64,
    ) -> Option<Result<Result<(), u64>, StoreError>> {
        Some(self.run(async {
            let client = self.client().await?;
            // Prepared once per connection: one round trip per request.
            let statement = client.prepare_cached(TAKE_TOKEN).await?;
            let row = client
                .query_one(&statement, &[&tenant.0, &per_second, &burst])
                .await?;
            let (tokens, granted): (f64, bool) = (row.try_get(0)?, row.try_get(1)?);
            Ok(if granted {
                Ok(())
            } else {
                Err(((1.0 - tokens) / per_second).ceil().max(1.0) as u64)
            })
        }))
    }

    fn files(&self, tenant: &Tenant, limit: u32) -> Result<Vec<FileRow>, StoreError> {
        self.run(async {
            let client = self.client().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {FILE_COLUMNS} FROM files WHERE tenant = $1
                         ORDER BY created_at DESC, rowid DESC LIMIT $2"
                    ),
                    &[&tenant.0, &i64::from(limit)],
                )
                .await?;
            all(&rows, file_row)
        })
    }

    fn delete_file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, StoreError> {
        self.run(async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            let row = tx
                .query_opt(
                    &format!(
                        "DELETE FROM files WHERE tenant = $1 AND file_id = $2 RETURNING {FILE_COLUMNS}"
                    ),
                    &[&tenant.0, &file_id],
                )
                .await?
                .map(|r| file_row(&r))
                .transpose()?;
            if row.is_some() {
                tx.execute(
                    "DELETE FROM cards WHERE tenant = $1 AND file_id = $2",
                    &[&tenant.0, &file_id],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(row)
        })
    }

    fn put_file(&self, tenant: &Tenant, row: &FileRow) -> Result<(), StoreError> {
        self.run(async { self.write_file(tenant, row, true).await.map(|_| ()) })
    }

    fn insert_file(&self, tenant: &Tenant, row: &FileRow) -> Result<bool, StoreError> {
        self.run(async { Ok(self.write_file(tenant, row, false).await? == 1) })
    }

    fn file_named(&self, tenant: &Tenant, file_name: &str) -> Result<Option<String>, StoreError> {
        self.run(async {
            let client = self.client().await?;
            let row = client
                .query_opt(
                    "SELECT file_id FROM files WHERE tenant = $1 AND file_name = $2
                     ORDER BY updated_at DESC, rowid DESC LIMIT 1",
                    &[&tenant.0, &file_name],
                )
                .await?;
            Ok(row.map(|r| r.try_get(0)).transpose()?)
        })
    }

    fn file(&self, tenant: &Tenant, file_id: &str) -> Result<Option<FileRow>, StoreError> {
        self.run(self.one_file(tenant, file_id))
    }

    fn create_thread(&self, tenant: &Tenant, row: &ThreadRow) -> Result<(), StoreError> {
        self.run(async {
            self.client()
                .await?
                .execute(
                    "INSERT INTO threads (tenant, thread_id, created, title, metadata)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[
                        &tenant.0,
                        &row.thread_id,
                        &row.created,
                        &row.title,
                        &row.metadata,
                    ],
                )
                .await?;
            Ok(())
        })
    }

    fn thread(&self, tenant: &Tenant, id: &str) -> Result<Option<ThreadRow>, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_opt(
                    "SELECT thread_id, created, title, metadata FROM threads
                     WHERE tenant = $1 AND thread_id = $2",
                    &[&tenant.0, &id],
                )
                .await?;
            row.map(|r| thread_row(&r)).transpose()
        })
    }

    fn threads(
        &self,
        tenant: &Tenant,
        after: Option<&str>,
        limit: u32,
    ) -> Result<(Vec<ThreadRow>, bool), StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT thread_id, created, title, metadata FROM threads WHERE tenant = $1
                     AND ($2::text IS NULL OR rowid < (SELECT rowid FROM threads
                         WHERE tenant = $1 AND thread_id = $2))
                     ORDER BY rowid DESC LIMIT $3",
                    &[&tenant.0, &after, &(i64::from(limit) + 1)],
                )
                .await?;
            Ok(one_page(all(&rows, thread_row)?, limit))
        })
    }

    fn add_messages(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        messages: &[MessageRow],
    ) -> Result<(), StoreError> {
        self.run(async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            for m in messages {
                tx.execute(
                    "INSERT INTO thread_messages (tenant, thread_id, message_id, created, role, content)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &[&tenant.0, &thread_id, &m.message_id, &m.created, &m.role, &m.content],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn has_message(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        message_id: &str,
    ) -> Result<bool, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_one(
                    "SELECT EXISTS (SELECT 1 FROM thread_messages
                     WHERE tenant = $1 AND thread_id = $2 AND message_id = $3)",
                    &[&tenant.0, &thread_id, &message_id],
                )
                .await?;
            Ok(row.try_get(0)?)
        })
    }

    fn messages(
        &self,
        tenant: &Tenant,
        thread_id: &str,
        after: Option<&str>,
        limit: u32,
    ) -> Result<(Vec<MessageRow>, bool), StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT message_id, created, role, content FROM thread_messages
                     WHERE tenant = $1 AND thread_id = $2
                     AND ($3::text IS NULL OR seq > (SELECT seq FROM thread_messages
                         WHERE tenant = $1 AND thread_id = $2 AND message_id = $3))
                     ORDER BY seq LIMIT $4",
                    &[&tenant.0, &thread_id, &after, &(i64::from(limit) + 1)],
                )
                .await?;
            let rows = all(&rows, |r| {
                Ok(MessageRow {
                    message_id: r.try_get(0)?,
                    created: r.try_get(1)?,
                    role: r.try_get(2)?,
                    content: r.try_get(3)?,
                })
            })?;
            Ok(one_page(rows, limit))
        })
    }

    fn create_view(
        &self,
        tenant: &Tenant,
        row: &ViewRow,
        max: i64,
    ) -> Result<ViewOutcome, StoreError> {
        self.run(async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            lock(&tx, "views", tenant).await?;
            let counts = tx
                .query_one(
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE reference_id IS NOT NULL AND reference_id = $2)
                     FROM saved_views WHERE tenant = $1",
                    &[&tenant.0, &row.reference_id],
                )
                .await?;
            let (count, taken): (i64, i64) = (counts.try_get(0)?, counts.try_get(1)?);
            if count >= max {
                return Ok(ViewOutcome::TooMany);
            }
            if taken > 0 {
                return Ok(ViewOutcome::ReferenceTaken);
            }
            tx.execute(
                &format!(
                    "INSERT INTO saved_views (tenant, {VIEW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                ),
                &[
                    &tenant.0,
                    &row.view_id,
                    &row.reference_id,
                    &row.schema_id,
                    &row.name,
                    &row.card_type,
                    &row.query,
                    &row.created_at,
                ],
            )
            .await?;
            tx.commit().await?;
            Ok(ViewOutcome::Stored)
        })
    }

    fn views(
        &self,
        tenant: &Tenant,
        view_id: Option<&str>,
        reference_id: Option<&str>,
    ) -> Result<Vec<ViewRow>, StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {VIEW_COLUMNS} FROM saved_views WHERE tenant = $1
                         AND ($2::text IS NULL OR view_id = $2) AND ($3::text IS NULL OR reference_id = $3)
                         ORDER BY created_at, rowid"
                    ),
                    &[&tenant.0, &view_id, &reference_id],
                )
                .await?;
            all(&rows, view_row)
        })
    }

    fn create_index(
        &self,
        tenant: &Tenant,
        name: &str,
        description: Option<&str>,
        status: &str,
    ) -> Result<IndexRow, StoreError> {
        self.run(async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            lock(&tx, "indexes", tenant).await?;
            let others: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM private_indexes WHERE tenant = $1",
                    &[&tenant.0],
                )
                .await?
                .try_get(0)?;
            let now = now_rfc3339();
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
            Self::write_index(&*tx, tenant, &row).await?;
            tx.commit().await?;
            Ok(row)
        })
    }

    fn put_index(&self, tenant: &Tenant, row: &IndexRow) -> Result<(), StoreError> {
        self.run(async {
            let client = self.client().await?;
            Self::write_index(&**client, tenant, row).await
        })
    }

    fn index(&self, tenant: &Tenant, id: &str) -> Result<Option<IndexRow>, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_opt(
                    &format!(
                        "SELECT {INDEX_COLUMNS} FROM private_indexes WHERE tenant = $1 AND id = $2"
                    ),
                    &[&tenant.0, &id],
                )
                .await?;
            row.map(|r| index_row(&r)).transpose()
        })
    }

    fn indexes(
        &self,
        tenant: &Tenant,
        offset: u64,
        limit: u64,
    ) -> Result<(Vec<IndexRow>, u64), StoreError> {
        self.run(async {
            let client = self.client().await?;
            let total: i64 = client
                .query_one(
                    "SELECT COUNT(*) FROM private_indexes WHERE tenant = $1",
                    &[&tenant.0],
                )
                .await?
                .try_get(0)?;
            let rows = client
                .query(
                    &format!(
                        "SELECT {INDEX_COLUMNS} FROM private_indexes WHERE tenant = $1
                         ORDER BY created_at, rowid LIMIT $2 OFFSET $3"
                    ),
                    &[
                        &tenant.0,
                        &i64::try_from(limit).unwrap_or(i64::MAX),
                        &i64::try_from(offset).unwrap_or(i64::MAX),
                    ],
                )
                .await?;
            Ok((all(&rows, index_row)?, u64::try_from(total).unwrap_or(0)))
        })
    }

    fn index_files(
        &self,
        tenant: &Tenant,
        index: &str,
    ) -> Result<Vec<(String, String, String, String)>, StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    "SELECT file_id, schema_id, cleaned_key, cleaned_context FROM files
                     WHERE tenant = $1 AND private_index = $2 ORDER BY created_at, rowid",
                    &[&tenant.0, &index],
                )
                .await?;
            all(&rows, |r| {
                Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?))
            })
        })
    }

    fn put_cards(&self, cards: &[CardRow]) -> Result<(), StoreError> {
        self.run(async {
            let mut client = self.client().await?;
            let tx = client.transaction().await?;
            for card in cards {
                tx.execute(
                    "INSERT INTO cards (card_id, tenant, file_id, card_type, title, description,
                        visualization_data, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                     ON CONFLICT (card_id) DO UPDATE SET tenant = EXCLUDED.tenant,
                        file_id = EXCLUDED.file_id, card_type = EXCLUDED.card_type,
                        title = EXCLUDED.title, description = EXCLUDED.description,
                        visualization_data = EXCLUDED.visualization_data,
                        created_at = EXCLUDED.created_at",
                    &[
                        &card.card_id,
                        &card.tenant,
                        &card.file_id,
                        &card.card_type,
                        &card.title,
                        &card.description,
                        &card.visualization_data,
                        &card.created_at,
                    ],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn card(&self, card_id: &str) -> Result<Option<CardRow>, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_opt(
                    "SELECT card_id, tenant, file_id, card_type, title, description,
                        visualization_data, created_at FROM cards WHERE card_id = $1",
                    &[&card_id],
                )
                .await?;
            row.map(|r| {
                Ok(CardRow {
                    card_id: r.try_get(0)?,
                    tenant: r.try_get(1)?,
                    file_id: r.try_get(2)?,
                    card_type: r.try_get(3)?,
                    title: r.try_get(4)?,
                    description: r.try_get(5)?,
                    visualization_data: r.try_get(6)?,
                    created_at: r.try_get(7)?,
                })
            })
            .transpose()
        })
    }

    fn put_upload(&self, tenant: &Tenant, row: &UploadRow) -> Result<(), StoreError> {
        self.run(async {
            self.client()
                .await?
                .execute(
                    "INSERT INTO uploads (tenant, file_id, file_name, bucket_key, content_type,
                        display_name, file_context, source, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                     ON CONFLICT (tenant, file_id) DO NOTHING",
                    &[
                        &tenant.0,
                        &row.file_id,
                        &row.file_name,
                        &row.bucket_key,
                        &row.content_type,
                        &row.display_name,
                        &row.file_context,
                        &row.source,
                        &row.expires_at,
                    ],
                )
                .await?;
            Ok(())
        })
    }

    fn upload(&self, tenant: &Tenant, file_id: &str) -> Result<Option<UploadRow>, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_opt(
                    "SELECT file_id, file_name, bucket_key, content_type, display_name, file_context,
                        source, expires_at FROM uploads WHERE tenant = $1 AND file_id = $2",
                    &[&tenant.0, &file_id],
                )
                .await?;
            row.map(|r| {
                Ok(UploadRow {
                    file_id: r.try_get(0)?,
                    file_name: r.try_get(1)?,
                    bucket_key: r.try_get(2)?,
                    content_type: r.try_get(3)?,
                    display_name: r.try_get(4)?,
                    file_context: r.try_get(5)?,
                    source: r.try_get(6)?,
                    expires_at: r.try_get(7)?,
                })
            })
            .transpose()
        })
    }

    fn upload_named(&self, tenant: &Tenant, file_name: &str) -> Result<Option<String>, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_opt(
                    "SELECT file_id FROM uploads WHERE tenant = $1 AND file_name = $2
                     ORDER BY expires_at DESC LIMIT 1",
                    &[&tenant.0, &file_name],
                )
                .await?;
            Ok(row.map(|r| r.try_get(0)).transpose()?)
        })
    }

    fn pending_uploads(&self, tenant: &Tenant, limit: u32) -> Result<Vec<UploadRow>, StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {UPLOAD_COLUMNS} FROM uploads WHERE tenant = $1
                         ORDER BY expires_at DESC LIMIT $2"
                    ),
                    &[&tenant.0, &i64::from(limit)],
                )
                .await?;
            rows.iter().map(|r| upload_of(r, 0)).collect()
        })
    }

    fn expired_uploads(
        &self,
        before: &str,
        limit: u32,
    ) -> Result<Vec<(Tenant, UploadRow)>, StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT tenant, {UPLOAD_COLUMNS} FROM uploads WHERE expires_at < $1
                         ORDER BY expires_at LIMIT $2"
                    ),
                    &[&before, &i64::from(limit)],
                )
                .await?;
            rows.iter()
                .map(|r| Ok((Tenant(r.try_get(0)?), upload_of(r, 1)?)))
                .collect()
        })
    }

    fn drop_upload(&self, tenant: &Tenant, file_id: &str) -> Result<(), StoreError> {
        self.run(async {
            self.client()
                .await?
                .execute(
                    "DELETE FROM uploads WHERE tenant = $1 AND file_id = $2",
                    &[&tenant.0, &file_id],
                )
                .await?;
            Ok(())
        })
    }

    fn put_preview(&self, row: &PreviewRow) -> Result<(), StoreError> {
        self.run(async {
            self.client()
                .await?
                .execute(
                    "INSERT INTO previews (card_id, tenant, object, title, expires_at)
                     VALUES ($1, $2, $3, $4, $5)",
                    &[
                        &row.card_id,
                        &row.tenant,
                        &row.object,
                        &row.title,
                        &row.expires_at,
                    ],
                )
                .await?;
            Ok(())
        })
    }

    fn preview(&self, card_id: &str) -> Result<Option<PreviewRow>, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_opt(
                    &format!("SELECT {PREVIEW_COLUMNS} FROM previews WHERE card_id = $1"),
                    &[&card_id],
                )
                .await?;
            row.map(|r| preview_of(&r)).transpose()
        })
    }

    fn expired_previews(&self, before: &str, limit: u32) -> Result<Vec<PreviewRow>, StoreError> {
        self.run(async {
            let rows = self
                .client()
                .await?
                .query(
                    &format!(
                        "SELECT {PREVIEW_COLUMNS} FROM previews WHERE expires_at < $1
                         ORDER BY expires_at LIMIT $2"
                    ),
                    &[&before, &i64::from(limit)],
                )
                .await?;
            rows.iter().map(preview_of).collect()
        })
    }

    fn drop_preview(&self, card_id: &str) -> Result<(), StoreError> {
        self.run(async {
            self.client()
                .await?
                .execute("DELETE FROM previews WHERE card_id = $1", &[&card_id])
                .await?;
            Ok(())
        })
    }

    fn preview_count(&self, tenant: &Tenant) -> Result<u64, StoreError> {
        self.run(async {
            let row = self
                .client()
                .await?
                .query_one(
                    "SELECT COUNT(*) FROM previews WHERE tenant = $1",
                    &[&tenant.0],
                )
                .await?;
            let count: i64 = row.try_get(0)?;
            Ok(count.max(0).unsigned_abs())
        })
    }
}

/// The columns of an upload's row, in [`UploadRow`]'s order.
const UPLOAD_COLUMNS: &str =
    "file_id, file_name, bucket_key, content_type, display_name, file_context, source, expires_at";

/// An upload's row from its columns, the first at `at`.
fn upload_of(r: &Row, at: usize) -> Result<UploadRow, Failure> {
    Ok(UploadRow {
        file_id: r.try_get(at)?,
        file_name: r.try_get(at + 1)?,
        bucket_key: r.try_get(at + 2)?,
        content_type: r.try_get(at + 3)?,
        display_name: r.try_get(at + 4)?,
        file_context: r.try_get(at + 5)?,
        source: r.try_get(at + 6)?,
        expires_at: r.try_get(at + 7)?,
    })
}

/// The columns of a preview's row, in [`PreviewRow`]'s order.
const PREVIEW_COLUMNS: &str = "card_id, tenant, object, title, expires_at";

fn preview_of(r: &Row) -> Result<PreviewRow, Failure> {
    Ok(PreviewRow {
        card_id: r.try_get(0)?,
        tenant: r.try_get(1)?,
        object: r.try_get(2)?,
        title: r.try_get(3)?,
        expires_at: r.try_get(4)?,
    })
}
