import { describe, expect, it } from 'vitest';
import { BackupRefused, postgresTool } from './backup.ts';

describe('the PostgreSQL tools a backup needs', () => {
  it('names the package to install when pg_dump of the server’s version is not here', () => {
    expect(() => postgresTool('pg_dump', 99)).toThrow(BackupRefused);
    expect(() => postgresTool('pg_dump', 99)).toThrow('apt-get install postgresql-client-99');
    expect(() => postgresTool('pg_restore', 99)).toThrow('pg_restore 99 is needed for this PostgreSQL 99 server');
  });
});
