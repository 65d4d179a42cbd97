// One client factory for both drivers (DESIGN §1): PGlite persisted on disk by default,
// a real PostgreSQL server when DATABASE_URL is set. Kept free of Astro imports so scripts and tests use it too.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import * as schema from './schema.ts';

const PGLITE_SHARED_BUFFERS = '16MB';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type RawQuery = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** One plain SQL statement outside any transaction: for read models that want rows, not objects. */
  query: RawQuery;
  /** Runs fn inside one transaction on one connection with plain SQL: for bulk work such as the seed. */
  rawTransaction<T>(fn: (query: RawQuery) => Promise<T>): Promise<T>;
  /** Serialises fn across every process sharing the database (an advisory lock on PostgreSQL). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn unless another process sharing the database is running work of the same name (a try of an
   * advisory lock on PostgreSQL): false when it was not run. The housekeeping jobs (src/lib/jobs.ts).
   */
  ifFree(name: string, fn: () => Promise<void>): Promise<boolean>;
  /** Connections in use, idle and awaited (PostgreSQL's pool), or calls queued (the embedded database). */
  load(): { kind: 'pool'; total: number; idle: number; waiting: number } | { kind: 'queue'; pending: number };
  /** Applies pending SQL migrations from the migrations folder (under an advisory lock on PostgreSQL). */
  migrate(): Promise<void>;
  /** The embedded database's files as one gzipped tar, taken while no query runs (src/lib/backup.ts). */
  snapshot?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Folder for the embedded PGlite database; ignored when databaseUrl is set. */
  dataDir: string;
  migrationsDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** A new embedded database made from a snapshot (a backup being restored). */
  loadDataDir?: Blob;
}

// Any fixed number: every instance that starts together waits on the same lock.
const MIGRATION_LOCK_ID = 7_274_201;

/** The SQL migrations, in the project's `drizzle/` folder (the server runs from the project root). */
export function defaultMigrationsDir(): string {
  return resolve('drizzle');
}

/** Whether DATA_DIR already holds an embedded database (PGlite's initdb has run there). */
export function embeddedDatabaseCreated(dataDir: string): boolean {
  return dataDir.startsWith('memory://') || existsSync(resolve(dataDir, 'pglite', 'PG_VERSION'));
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsDir ?? defaultMigrationsDir();
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.maxConnections ?? 10 });
    // The housekeeping jobs' locks live on connections of their own: a job holds its lock's connection while
    // its work takes others, so with the locks in the same pool ten jobs due at once (JOBS_EVERY_SECONDS=1)
    // held all ten connections and waited for an eleventh for ever. A job that finds these taken waits for
    // one; the shop's queries never do.
    const lockPool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
    const db = drizzle(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      query: (text, params) => pool.query(text, params),
      async migrate() {
        await migrate(drizzle(pool, { schema }), { migrationsFolder });
      },
      async exclusive(fn) {
        const lockClient = await pool.connect();
        try {
          await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          return await fn();
        } finally {
          await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
          lockClient.release();
        }
      },
      async ifFree(name, fn) {
        const lockClient = await lockPool.connect();
        try {
          const { rows } = await lockClient.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext('brandshop:' || $1)) AS locked`, [name]);
          if (!rows[0]?.locked) return false;
          try {
            await fn();
          } finally {
            await lockClient.query(`SELECT pg_advisory_unlock(hashtext('brandshop:' || $1))`, [name]).catch(() => {});
          }
          return true;
        } finally {
          lockClient.release();
        }
      },
      load: () => ({ kind: 'pool', total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async rawTransaction(fn) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn((text, params) => client.query(text, params));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
      close: async () => {
        await Promise.all([pool.end(), lockPool.end()]);
      },
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // 'memory://' keeps the database in memory (tests); anything else is a folder on disk.
  const inMemory = options.dataDir.startsWith('memory://');
  const dataDir = inMemory ? options.dataDir : resolve(options.dataDir, 'pglite');
  // PGlite does not create missing parent folders (DESIGN §8).
  if (!inMemory) mkdirSync(dirname(dataDir), { recursive: true });
  // PGlite's Postgres keeps PostgreSQL's default 128 MB of shared buffers inside the process; the data
  // files sit in the OS page cache anyway, and 16 MB cut the shop's resident memory by ~110 MB at no
  // measurable cost to the benchmark (docs/performance.md, "Memory").
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  // PGlite answers one call at a time: how many wait (or run) is the embedded database's load.
  let pending = 0;
  for (const method of ['query', 'exec', 'transaction'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(client, method, {
      value: async (...args: unknown[]) => {
        pending++;
        try {
          return await original(...args);
        } finally {
          pending--;
        }
      },
    });
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // One process owns the embedded database: nobody else could be running the work.
    ifFree: async (_name, fn) => {
      await fn();
      return true;
    },
    load: () => ({ kind: 'queue', pending }),
    snapshot: () => client.dumpDataDir('gzip'),
    query: (text, params) => client.query<Record<string, unknown>>(text, params),
    async migrate() {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    },
    // PGlite is one connection in one process: there is nobody to race with.
    exclusive: (fn) => fn(),
    rawTransaction: (fn) => client.transaction((tx) => fn((text, params) => tx.query<Record<string, unknown>>(text, params))),
    close: () => client.close(),
  };
}

/**
 * The rows of one plain SQL statement, typed by the caller as the statement's own column list says:
 * the single place a hand-written statement's rows get their type. Columns inside should come from the
 * schema (`${products.price}`) so a renamed column fails to compile instead of failing at run time.
 */
export async function selectRows<T extends Record<string, unknown>>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  // Both drivers answer { rows }; drizzle's types describe only node-postgres's QueryResult.
  const result = (await db.execute<T>(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Whether a failed statement broke a unique index (SQLSTATE 23505; drizzle may wrap the driver's error in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Cheap liveness check used by /api/health. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
