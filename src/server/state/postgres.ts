import pg from 'pg';
import { FOLD_FUNCTION_SQL } from './fold-case.ts';

/**
 * PostgreSQL (DATABASE_URL, issue 34): the audit trail's table, shared by every instance. The client is
 * `pg` (node-postgres 8.23.1, pure JavaScript: its `engines` says node >= 16; `postgres` 3.4.9, which says
 * node >= 12, would do too, but `pg` is the one most operators and tools know, its pool reports a
 * dropped connection as an event rather than a rejected promise nobody awaits, and its parameterised
 * `query(text, values)` is the only form this project uses: never a value spliced into SQL text).
 *
 * The database is never in a lookup's path: the audit files are the record, the table an index of them
 * (trail/audit-indexer.ts), so a database that is down or slow costs the audit page its speed, never a
 * lookup. Hence short timeouts: a query that hangs is given up after a few seconds.
 */

export type Database = pg.Pool;

export interface DatabaseOptions {
  /**
   * Told when PostgreSQL ends a connection (an administrator's shutdown, 57P01; `pg_terminate_backend`; a
   * network cut), once until a connection is made again: the call that held it fails, the next one connects.
   */
  onConnectionLost?: (error: Error) => void;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    // Client side (a server that stopped answering) and server side (a query that runs too long).
    query_timeout: 15_000,
    statement_timeout: 15_000,
    application_name: 'candidate-lookup',
    // A process that has nothing else to do may end although the pool has idle connections.
    allowExitOnIdle: true,
  });
  let lost = false;
  const said = (error: Error) => {
    if (!lost) options.onConnectionLost?.(error);
    lost = true;
  };
  // Every connection listens for its own end, for as long as it lives: the pool listens only while it is idle,
  // and an 'error' event nobody listens to ends the process. A connection checked out (a transaction: the
  // indexer's batch, the retention, a cut, the schema) whose end comes after its query failed would do so.
  pool.on('connect', (client) => {
    lost = false;
    client.on('error', said);
  });
  // An idle connection's end: its own listener above said it; the pool replaces it at the next query.
  pool.on('error', () => {});
  return pool;
}

/** `postgres://user@db.internal:5432/audit`: where, without the password (for the start banner and the logs). */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return '(DATABASE_URL)';
  }
}

/** A driver's error in a line: the code PostgreSQL gave, or the socket's. Never the URL or a value (DatabaseUnfit's own text whole). */
export function databaseProblem(error: unknown): string {
  // Written here, naming no URL and no value, and its advice at its end: said whole.
  if (error instanceof DatabaseUnfit) return error.message;
  const { code, message } = error as { code?: string; message?: string };
  const text = (message ?? String(error)).replace(/postgres(ql)?:\/\/\S+/gi, '(DATABASE_URL)').slice(0, 300);
  return code && !text.includes(code) ? `${text} (${code})` : text;
}

/**
 * The schema's migrations, in order: each runs once, under a lock, so that instances starting together do
 * not race. A migration adds, never rewrites: a table of an older version is brought forward by the next
 * ones (exported for the test that does so).
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE candidate_lookup_audit (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     hash text NOT NULL UNIQUE,
     instance text NOT NULL,
     time timestamptz NOT NULL,
     action text NOT NULL,
     "user" text,
     role text,
     env text,
     kind text,
     candidate_id text,
     level text,
     status integer,
     code text,
     client text,
     request_id text,
     detail text,
     line text NOT NULL,
     indexed_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE INDEX candidate_lookup_audit_time ON candidate_lookup_audit (time, seq);
   CREATE INDEX candidate_lookup_audit_user ON candidate_lookup_audit ("user", time, seq);
   CREATE INDEX candidate_lookup_audit_candidate ON candidate_lookup_audit (candidate_id, time, seq);
   CREATE INDEX candidate_lookup_audit_action ON candidate_lookup_audit (action, time, seq);
   CREATE TABLE candidate_lookup_audit_instances (
     instance text PRIMARY KEY,
     indexed_hash text,
     indexed_inode bigint,
     indexed_offset bigint,
     indexed_time timestamptz,
     reported_at timestamptz,
     report jsonb
   );
   CREATE FUNCTION candidate_lookup_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
   DECLARE keep text := current_setting('candidate_lookup.retention_days', true);
   BEGIN
     IF TG_OP = 'DELETE' AND coalesce(keep, '') <> '' AND OLD.time < now() - make_interval(days => keep::int) THEN
       RETURN OLD;
     END IF;
     RAISE EXCEPTION 'candidate_lookup_audit is append-only: % refused (rows leave only when audit.retentionDays has passed)', TG_OP;
   END
   $fn$;
   CREATE TRIGGER candidate_lookup_audit_append_only BEFORE UPDATE OR DELETE ON candidate_lookup_audit
     FOR EACH ROW EXECUTE FUNCTION candidate_lookup_audit_append_only();
   CREATE TRIGGER candidate_lookup_audit_no_truncate BEFORE TRUNCATE ON candidate_lookup_audit
     FOR EACH STATEMENT EXECUTE FUNCTION candidate_lookup_audit_append_only();`,
  // A search by user ignores capitals A to Z (audit-match.ts's foldCase): its index holds the name so folded.
  `CREATE INDEX candidate_lookup_audit_user_folded ON candidate_lookup_audit (lower("user" COLLATE "C"), time, seq);
   DROP INDEX candidate_lookup_audit_user;`,
  // A queue view that showed personal data names its candidates (`refId:<id>`, `recordId:<id>`: trail/audit-row.ts)
  // and its tab. Columns without a default are added without rewriting a row; the rows already there are
  // lines of before, whose views named nobody, and stay null. The index holds only the rows that name someone.
  `ALTER TABLE candidate_lookup_audit ADD COLUMN queue_tab text, ADD COLUMN shown_ids text[];
   CREATE INDEX candidate_lookup_audit_shown ON candidate_lookup_audit USING gin (shown_ids) WHERE shown_ids IS NOT NULL;`,
  // Lines cut from the end of an audit file that the table had taken (trail/audit-cuts.ts): a lasting break,
  // append-only as the lines are; the rows after_seq < seq <= through_seq are the ones the file no longer has.
  `CREATE TABLE candidate_lookup_audit_cuts (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     instance text NOT NULL,
     file text NOT NULL,
     inode bigint NOT NULL,
     time timestamptz NOT NULL DEFAULT now(),
     after_line bigint NOT NULL,
     cut_bytes bigint NOT NULL,
     after_seq bigint,
     through_seq bigint NOT NULL,
     last_hash text,
     last_time timestamptz
   );
   CREATE TRIGGER candidate_lookup_audit_cuts_append_only BEFORE UPDATE OR DELETE ON candidate_lookup_audit_cuts
     FOR EACH ROW EXECUTE FUNCTION candidate_lookup_audit_append_only();
   CREATE TRIGGER candidate_lookup_audit_cuts_no_truncate BEFORE TRUNCATE ON candidate_lookup_audit_cuts
     FOR EACH STATEMENT EXECUTE FUNCTION candidate_lookup_audit_append_only();`,
  // A full lookup's request closes with a line saying what its answer held, or with a cut line
  // (trail/closing-lines.ts): its row finds it by the request, along this index of those lines only.
  `CREATE INDEX candidate_lookup_audit_closing ON candidate_lookup_audit (instance, request_id) WHERE action IN ('held', 'cut');`,
  // A search by user ignores every capital Unicode gives one small letter (ÉLODIE finds élodie), no longer A to Z
  // only: the function folds as trail/fold-case.ts's foldCase does, from the same frozen table, and the index holds it.
  `${FOLD_FUNCTION_SQL};
   CREATE INDEX candidate_lookup_audit_user_unicode ON candidate_lookup_audit (candidate_lookup_fold("user"), time, seq);
   DROP INDEX candidate_lookup_audit_user_folded;`,
  // The audit page's names like the one typed (trail/audit-users.ts's similarUsersInTable) walk the table's
  // distinct users one step each, in the order of "user" itself: without an index on it each step read the
  // whole table (about 0.5 s over 300,000 rows, docs/performance.md). Migration 2 dropped the one that did.
  `CREATE INDEX candidate_lookup_audit_user_name ON candidate_lookup_audit ("user");`,
];

/**
 * A database the schema cannot be made in as it must be, whatever is tried again: said as it is (the
 * server's log and the audit page's fallback, audit:import's exit 2), not as an outage that will pass.
 */
export class DatabaseUnfit extends Error {
  override name = 'DatabaseUnfit';
}

/**
 * The database's encoding must be UTF8: migration 6's candidate_lookup_fold maps some 1,400 capitals outside
 * ASCII, and the lines the table holds are any Unicode. In SQL_ASCII the function's text is taken as bytes
 * (its mapping compares bytes, not letters, and folds nothing outside ASCII right); in LATIN1 and the other
 * one-byte encodings it cannot even be created (a raw "has no equivalent in encoding" error), nor could a
 * line naming a candidate in Greek be stored. Asked before anything is made.
 */
async function checkEncoding(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ encoding: string; name: string }>(
    "SELECT current_setting('server_encoding') AS encoding, current_database() AS name",
  );
  const encoding = rows[0]?.encoding ?? '(unknown)';
  if (encoding === 'UTF8') return;
  const name = rows[0]?.name ?? 'audit';
  throw new DatabaseUnfit(
    `the database "${name}" is encoded ${encoding}, and the audit table needs UTF8 (its lines are any Unicode, and a search by user folds capitals outside ASCII). ` +
      `Create a database in UTF8 and point DATABASE_URL at it: createdb -E UTF8 -T template0 ${name}_utf8 ` +
      `(or CREATE DATABASE ${name}_utf8 ENCODING 'UTF8' TEMPLATE template0); docs/deploying.md.`,
  );
}

/** Any number, the same in every instance: the lock under which the schema is migrated. */
const MIGRATION_LOCK = 340_034;

/**
 * Creates the schema, or brings it up to this version's; what a newer version added is left as it is. A
 * database not in UTF8 is refused before anything is made (DatabaseUnfit).
 */
export async function migrate(db: Database): Promise<void> {
  const client = await db.connect();
  try {
    const { rows: version } = await client.query<{ n: number }>("SELECT current_setting('server_version_num')::int AS n");
    const n = version[0]?.n ?? 0;
    if (n < 140_000) throw new DatabaseUnfit(`PostgreSQL 14 or later is needed; this server is ${Math.floor(n / 10_000)}`);
    await checkEncoding(client);
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS candidate_lookup_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>(
      'SELECT coalesce(max(version), 0)::int AS version FROM candidate_lookup_schema',
    );
    for (let version = rows[0]?.version ?? 0; version < MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version]!);
      await client.query('INSERT INTO candidate_lookup_schema (version) VALUES ($1)', [version + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
