// Backups of the shop (docs/operations.md "Backups"): one .tar.gz holding a manifest, the database and
// the data folder (photos, outbox, feeds, the operator token) — taken while the shop serves and takes
// orders, and put back into an empty folder or database. The embedded database is copied by PGlite
// itself (dumpDataDir: its files, tarred while no query runs, so the copy is as after a clean stop) —
// by the running shop when one owns the folder, else by this process; PostgreSQL by pg_dump of the
// server's own major version (a consistent snapshot; pg_restore puts it back). Relative imports only:
// scripts/backup.ts and scripts/restore.ts load this file with Node's type stripping.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { embeddedDatabaseCreated, openDatabase, type Database } from './db/client.ts';
import type { Env } from './env.ts';

export const BACKUP_FORMAT = 1;
/** What of DATA_DIR a backup leaves out: the embedded database's own folder (copied apart), the running shop's file, earlier backups. */
const NOT_DATA = ['pglite', 'shop.json', 'backups'];

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  created: string;
  database: 'pglite' | 'postgres';
  /** PostgreSQL's major version the dump was taken from. */
  postgresMajor?: number;
}

/** A refusal with a message for the operator (exit code 2), not a crash. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

/** The PGlite data folder as one gzipped tar, written to `path` (which must not exist yet); its size. */
export async function writeEmbeddedSnapshot(database: Database, path: string): Promise<number> {
  if (!database.snapshot) throw new BackupRefused('not an embedded database');
  const bytes = Buffer.from(await (await database.snapshot()).arrayBuffer());
  writeFileSync(path, bytes, { flag: 'wx', mode: 0o600 });
  return bytes.length;
}

/** pg_dump or pg_restore of the server's major version: Debian's versioned folder first, then PATH. */
export function postgresTool(tool: 'pg_dump' | 'pg_restore', major: number): string {
  const candidates = [`/usr/lib/postgresql/${major}/bin/${tool}`, tool];
  for (const candidate of candidates) {
    const answer = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    const version = /(\d+)(?:\.\d+)?/.exec(answer.stdout ?? '')?.[1];
    if (answer.status === 0 && Number(version) === major) return candidate;
  }
  throw new BackupRefused(
    `${tool} ${major} is needed for this PostgreSQL ${major} server and was not found. On Debian or Ubuntu: ` +
      `apt-get install postgresql-client-${major} (from apt.postgresql.org when your release lacks it).`,
  );
}

/** The server's major version (15 for 15.19). */
async function postgresMajor(database: Database): Promise<number> {
  const { rows } = await database.query('SHOW server_version_num');
  return Math.floor(Number(rows[0]?.['server_version_num']) / 10_000);
}

export interface BackupOptions {
  config: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>;
  out: string;
  /** Asks the shop that owns the embedded database to write its snapshot to `path`; undefined when none runs. */
  askRunningShop?: ((path: string) => Promise<void>) | undefined;
  log?: (line: string) => void;
}

/** Takes a backup to `out` (a .tar.gz that must not exist yet); answers its manifest. */
export async function createBackup({ config, out, askRunningShop, log = () => {} }: BackupOptions): Promise<Manifest> {
  const target = resolve(out);
  if (existsSync(target)) throw new BackupRefused(`${target} exists already: a backup never overwrites a file`);
  mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'shop-backup-'));
  try {
    let manifest: Manifest;
    if (config.DATABASE_URL) {
      const server = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: tmpdir(), maxConnections: 1 });
      const major = await postgresMajor(server).finally(() => server.close());
      const pgDump = postgresTool('pg_dump', major);
      log(`PostgreSQL ${major}: ${pgDump}`);
      const dump = spawnSync(
        pgDump,
        ['--format=custom', '--no-owner', '--no-privileges', `--file=${join(staging, 'database.dump')}`, `--dbname=${config.DATABASE_URL}`],
        {
          encoding: 'utf8',
        },
      );
      if (dump.status !== 0) throw new BackupRefused(`pg_dump failed: ${(dump.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`);
      manifest = { format: BACKUP_FORMAT, created: new Date().toISOString(), database: 'postgres', postgresMajor: major };
    } else {
      const snapshot = join(staging, 'database.tar.gz');
      if (askRunningShop) {
        log('the running shop writes its database snapshot');
        await askRunningShop(snapshot);
      } else {
        if (!embeddedDatabaseCreated(config.DATA_DIR)) throw new BackupRefused(`no embedded database in ${resolve(config.DATA_DIR)}`);
        const database = await openDatabase({ dataDir: config.DATA_DIR });
        try {
          await writeEmbeddedSnapshot(database, snapshot);
        } finally {
          await database.close();
        }
      }
      manifest = { format: BACKUP_FORMAT, created: new Date().toISOString(), database: 'pglite' };
    }
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // The data folder after the database: a photo or mail written in between is an extra file, never a
    // missing one the database names.
    mkdirSync(resolve(config.DATA_DIR), { recursive: true });
    symlinkSync(resolve(config.DATA_DIR), join(staging, 'data'));
    const members = readdirSync(staging).filter((name) => name !== 'data');
    const excluded = NOT_DATA.map((name) => `--exclude=data/${name}`);
    // -h follows the data link; exit 1 means a file changed while it was read (mail being written), kept as read.
    const tar = spawnSync('tar', ['-czhf', target, ...excluded, '-C', staging, ...members, 'data'], { encoding: 'utf8' });
    if (tar.status !== 0 && tar.status !== 1) throw new BackupRefused(`tar failed: ${(tar.stderr ?? '').trim()}`);
    return manifest;
  } catch (error) {
    rmSync(target, { force: true });
    throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export interface RestoreOptions {
  config: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>;
  file: string;
  /** Replace a database that is there (the embedded one is moved aside, not deleted). */
  force: boolean;
  /** The process that owns the embedded database in DATA_DIR, if one runs. */
  runningShopPid?: number | undefined;
  log?: (line: string) => void;
}

/** Puts a backup back into DATA_DIR and the database (DATABASE_URL's, or the embedded one). */
export async function restoreBackup({ config, file, force, runningShopPid, log = () => {} }: RestoreOptions): Promise<Manifest> {
  const source = resolve(file);
  if (!existsSync(source)) throw new BackupRefused(`${source}: no such file`);
  const staging = mkdtempSync(join(tmpdir(), 'shop-restore-'));
  try {
    const untar = spawnSync('tar', ['-xzf', source, '-C', staging], { encoding: 'utf8' });
    if (untar.status !== 0) throw new BackupRefused(`${source} is not a shop backup (tar: ${(untar.stderr ?? '').trim().split('\n')[0]})`);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(join(staging, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      throw new BackupRefused(`${source} is not a shop backup (no manifest.json)`);
    }
    if (manifest.format !== BACKUP_FORMAT) throw new BackupRefused(`backup format ${String(manifest.format)} is not one this shop reads (${BACKUP_FORMAT})`);
    const dataDir = resolve(config.DATA_DIR);
    if (manifest.database === 'pglite') {
      if (config.DATABASE_URL) throw new BackupRefused('this backup holds an embedded database: restore it without DATABASE_URL');
      if (runningShopPid) throw new BackupRefused(`a shop (process ${runningShopPid}) has the database in ${dataDir} open: stop it first`);
      if (embeddedDatabaseCreated(dataDir)) {
        if (!force) throw new BackupRefused(`${dataDir} holds a database already: restore into an empty folder, or add --force to replace it`);
        const aside = join(dataDir, `pglite.replaced-${Date.now()}`);
        renameSync(join(dataDir, 'pglite'), aside);
        log(`the database that was there is kept in ${aside}`);
      }
      mkdirSync(dataDir, { recursive: true });
      const snapshot = new Blob([readFileSync(join(staging, 'database.tar.gz'))]);
      const database = await openDatabase({ dataDir, loadDataDir: snapshot });
      await database.close();
    } else {
      if (!config.DATABASE_URL) throw new BackupRefused('this backup holds a PostgreSQL database: set DATABASE_URL to the database to restore it into');
      const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir, maxConnections: 1 });
      let tables: number;
      let major: number;
      try {
        tables = Number(
          (await database.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema IN ('public', 'drizzle')`)).rows[0]?.['n'],
        );
        major = await postgresMajor(database);
      } finally {
        await database.close();
      }
      if (tables > 0 && !force)
        throw new BackupRefused('the database DATABASE_URL names holds tables already: restore into an empty database, or add --force to replace them');
      if (manifest.postgresMajor && major < manifest.postgresMajor)
        throw new BackupRefused(
          `the backup is of PostgreSQL ${manifest.postgresMajor}; this server is ${major}: restore into ${manifest.postgresMajor} or newer`,
        );
      const pgRestore = postgresTool('pg_restore', major);
      const restore = spawnSync(
        pgRestore,
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          ...(tables > 0 ? ['--clean', '--if-exists'] : []),
          `--dbname=${config.DATABASE_URL}`,
          join(staging, 'database.dump'),
        ],
        { encoding: 'utf8' },
      );
      if (restore.status !== 0) throw new BackupRefused(`pg_restore failed: ${(restore.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`);
    }
    // The data folder's files over what is there (photos and mail are never edited, only added).
    if (existsSync(join(staging, 'data'))) cpSync(join(staging, 'data'), dataDir, { recursive: true, force: true });
    log(`restored the ${manifest.database === 'pglite' ? 'embedded' : 'PostgreSQL'} database and the data folder from ${manifest.created}`);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** `tar -tzf`: the members of a backup (for the tests and for a look before restoring). */
export function backupMembers(file: string): string[] {
  return execFileSync('tar', ['-tzf', resolve(file)], { encoding: 'utf8' })
    .trim()
    .split('\n');
}
