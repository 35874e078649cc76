import type { AuditRow, IndexLag } from '../../kyc/contract/audit-search.ts';
import type { FileChain, InstanceState } from '../../kyc/contract/audit-status.ts';
import type { Database } from '../state/postgres.ts';
import { foldCase, type SearchFilter, SERVER_USER_LIST, TRAIL_READS } from './audit-match.ts';
import { type ShownIds, shownCandidatesOf, shownKey } from './audit-row.ts';
import { queueOnlyOf } from './audit-row-detail.ts';
import { CLOSING_LINE, closingOfLine, lineOf } from './closing-lines.ts';

/**
 * The audit table (state/postgres.ts has its schema): lines in, searches out, every value a parameter.
 * A line's hash is unique in the table, so inserting what is there already does nothing: the indexer
 * and `npm run audit:import` may both go over the same lines, as often as they like.
 */

/** A line to index: its row, the candidates its queue view names (audit-row.ts's readLine), and its text exactly as in the file. */
export interface IndexedLine {
  row: AuditRow;
  shown: readonly string[];
  line: string;
}

/** Where an instance's indexing stands: the last line indexed, in file order, and where it ends. */
export interface Progress {
  hash: string;
  inode: number;
  offset: number;
  time: string;
}

const COLUMNS = [
  ['hash', 'text'],
  ['instance', 'text'],
  ['time', 'timestamptz'],
  ['action', 'text'],
  ['"user"', 'text'],
  ['role', 'text'],
  ['env', 'text'],
  ['kind', 'text'],
  ['candidate_id', 'text'],
  ['level', 'text'],
  ['status', 'int'],
  ['code', 'text'],
  ['client', 'text'],
  ['request_id', 'text'],
  ['detail', 'text'],
  ['line', 'text'],
  ['queue_tab', 'text'],
] as const;

const CELLS = COLUMNS.map((_, i) => `c${i}`).join(', ');
/**
 * Each column a parameter of one array, the lines' `shown_ids` (arrays of different lengths, which one
 * PostgreSQL array cannot hold) one JSON array per line, null for none: made an array again here.
 */
const INSERT = `INSERT INTO candidate_lookup_audit (${COLUMNS.map(([name]) => name).join(', ')}, shown_ids)
  SELECT ${CELLS}, (SELECT array_agg(id ORDER BY n) FROM jsonb_array_elements_text(shown::jsonb) WITH ORDINALITY AS ids(id, n))
  FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}, $${COLUMNS.length + 1}::text[]) AS lines(${CELLS}, shown)
  ON CONFLICT (hash) DO NOTHING`;

const SAVE_PROGRESS = `INSERT INTO candidate_lookup_audit_instances (instance, indexed_hash, indexed_inode, indexed_offset, indexed_time)
  VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (instance) DO UPDATE SET indexed_hash = excluded.indexed_hash, indexed_inode = excluded.indexed_inode,
    indexed_offset = excluded.indexed_offset, indexed_time = excluded.indexed_time`;

/** Inserts the lines (those there already are left alone) and, in the same transaction, the instance's progress. */
export async function insertLines(db: Database, instance: string, lines: readonly IndexedLine[], progress?: Progress): Promise<number> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const columns = [...COLUMNS, 'shown_ids'].map((): unknown[] => []);
    for (const { row, shown, line } of lines) {
      const values: unknown[] = [row.hash, instance, row.time, row.action, row.user, row.role, row.env, row.kind, row.id, row.level];
      // The line as the file has it; NUL (only in a line someone else wrote) is the one character text refuses.
      values.push(row.status, row.code, row.client, row.requestId, row.detail, line.replaceAll('\u0000', '\ufffd'));
      values.push(row.queueTab ?? null, shown.length > 0 ? JSON.stringify(shown) : null);
      for (const [index, value] of values.entries()) columns[index]!.push(value);
    }
    const inserted = lines.length > 0 ? ((await client.query(INSERT, columns)).rowCount ?? 0) : 0;
    if (progress) await client.query(SAVE_PROGRESS, [instance, progress.hash, progress.inode, progress.offset, progress.time]);
    await client.query('COMMIT');
    return inserted;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export async function progressOf(db: Database, instance: string): Promise<Progress | undefined> {
  const { rows } = await db.query<{ hash: string; inode: string; offset: string; time: Date }>(
    'SELECT indexed_hash AS hash, indexed_inode AS inode, indexed_offset AS offset, indexed_time AS time FROM candidate_lookup_audit_instances WHERE instance = $1 AND indexed_hash IS NOT NULL',
    [instance],
  );
  const found = rows[0];
  return found ? { hash: found.hash, inode: Number(found.inode), offset: Number(found.offset), time: found.time.toISOString() } : undefined;
}

/** What an instance says of itself (its files' chains, its lag), for the audit page of every instance. */
export interface InstanceReport {
  files: FileChain[];
  behind?: IndexLag;
  /** Its last: the instance stopped normally (the store's close). */
  stopped?: true;
}

export async function saveReport(db: Database, instance: string, report: InstanceReport): Promise<void> {
  await db.query(
    `INSERT INTO candidate_lookup_audit_instances (instance, reported_at, report) VALUES ($1, now(), $2)
     ON CONFLICT (instance) DO UPDATE SET reported_at = excluded.reported_at, report = excluded.report`,
    [instance, JSON.stringify(report)],
  );
}

/**
 * Every instance's last report; `notReporting` where it is older than `staleAfterMs`, by the database's
 * clock on both sides (the instances' clocks may differ from it), unless it said the instance stopped;
 * one stopped for longer than `retentionDays` is left out.
 */
export async function reportsOf(db: Database, staleAfterMs: number, retentionDays: number): Promise<InstanceState[]> {
  const { rows } = await db.query<{ instance: string; reported_at: Date; report: InstanceReport; stale: boolean }>(
    `SELECT instance, reported_at, report, reported_at < now() - make_interval(secs => $1) AND NOT (report ? 'stopped') AS stale
       FROM candidate_lookup_audit_instances WHERE reported_at IS NOT NULL
         AND NOT (report ? 'stopped' AND reported_at < now() - make_interval(days => $2)) ORDER BY instance`,
    [staleAfterMs / 1000, retentionDays],
  );
  return rows.map((row) => ({
    instance: row.instance,
    self: false,
    reportedAt: row.reported_at.toISOString(),
    ...(row.stale ? { notReporting: true as const } : {}),
    ...(row.report?.stopped === true ? { stopped: true as const } : {}),
    files: Array.isArray(row.report?.files) ? row.report.files : [],
    ...(row.report?.behind ? { behind: row.report.behind } : {}),
  }));
}

/** Rows past the retention, deleted a batch at a time (the table's trigger lets only these go). How many went. */
export async function applyRetention(db: Database, days: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT set_config('candidate_lookup.retention_days', $1, true)", [String(days)]);
      const result = await client.query(
        `DELETE FROM candidate_lookup_audit WHERE seq IN (
           SELECT seq FROM candidate_lookup_audit WHERE time < now() - make_interval(days => $1) LIMIT 10000)`,
        [days],
      );
      await client.query('COMMIT');
      deleted += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < 10_000) return deleted;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

type Cell = string | number | readonly string[];

/** The filter as SQL conditions and their parameters, numbered from `first`: the same rules as audit-match.ts's `matches`. */
export function conditionsOf(filter: SearchFilter, first = 1): { where: string[]; params: Cell[] } {
  // A full answer's closing line is read onto its lookup's row (closing-lines.ts), never a row itself.
  const where: string[] = [`action <> 'held'`];
  const params: Cell[] = [];
  const param = (value: Cell) => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  // Capitals folded by candidate_lookup_fold, as the index (state/postgres.ts) and foldCase (fold-case.ts) fold them.
  if (filter.user !== undefined) where.push(`candidate_lookup_fold("user") = ${param(foldCase(filter.user))}`);
  // A line of no user (a note of the log) is the server's own: isServerWork.
  if (filter.who === 'people') where.push(`("user" IS NOT NULL AND "user" <> ALL(${param(SERVER_USER_LIST)}::text[]))`);
  if (filter.who === 'server') where.push(`("user" IS NULL OR "user" = ANY(${param(SERVER_USER_LIST)}::text[]))`);
  // A queue view is "Saw in the queue" when it names its candidates (its tab is kept then), as audit-match.ts's isAction.
  if (filter.action === 'saw_in_queue') where.push(`(action = 'list' AND queue_tab IS NOT NULL)`);
  else if (filter.action === 'list') where.push(`(action = 'list' AND queue_tab IS NULL)`);
  else if (filter.action !== undefined) where.push(`action = ${param(filter.action)}`);
  if (filter.actions !== undefined) where.push(`action = ANY(${param(filter.actions)}::text[])`);
  // The reader's own reads of the trail left out, as audit-match.ts's isReadBy: a line of no user is no one's.
  if (filter.exceptReadsBy !== undefined) {
    const reads = `action = ANY(${param(TRAIL_READS)}::text[])`;
    where.push(`NOT (${reads} AND "user" IS NOT NULL AND candidate_lookup_fold("user") = ${param(foldCase(filter.exceptReadsBy))})`);
  }
  if (filter.level !== undefined) where.push(`level = ${param(filter.level)}`);
  if (filter.env !== undefined) where.push(`env = ${param(filter.env)}`);
  const byCandidate: string[] = [];
  const shown: string[] = [];
  if (filter.refId !== undefined) {
    byCandidate.push(`(candidate_id = ${param(filter.refId)} AND kind = 'refId')`);
    shown.push(shownKey('refId', filter.refId));
  }
  if (filter.recordId !== undefined) {
    byCandidate.push(`(candidate_id = ${param(filter.recordId)} AND kind = 'recordId')`);
    shown.push(shownKey('recordId', filter.recordId));
  }
  // A queue view's line names its candidates (audit-row.ts's shownCandidatesOf), a refused lookup's the candidate
  // whose record came back (answered-record.ts): found by any of them, along its own index.
  if (shown.length > 0) byCandidate.push(`shown_ids && ${param(shown)}::text[]`);
  if (byCandidate.length > 0) where.push(`(${byCandidate.join(' OR ')})`);
  if (filter.from !== undefined) where.push(`time >= ${param(filter.from)}::timestamptz`);
  if (filter.to !== undefined) where.push(`time < ${param(filter.to)}::timestamptz`);
  return { where, params };
}

interface RowRecord {
  seq: string;
  time: Date;
  instance: string;
  hash: string;
  action: AuditRow['action'];
  user: string | null;
  role: string | null;
  env: string | null;
  kind: AuditRow['kind'];
  candidate_id: string | null;
  level: AuditRow['level'];
  status: number | null;
  code: string | null;
  client: string | null;
  request_id: string | null;
  detail: string | null;
  queue_tab: string | null;
  /**
   * A line that names candidates beyond its own id (a queue view's, a batch's hand-off's), whole: a view's
   * filters beyond its tab, and (the audit page's search) whom it showed or held, as shown_ids holds their
   * keys, not which ids are one row's.
   */
  named_line: string | null;
  /** A full lookup's: its request's closing line, or its cut line (closing-lines.ts). */
  closing_line: string | null;
}

const COLUMNS_READ = `seq, time, instance, hash, action, "user", role, env, kind, candidate_id, level, status, code, client, request_id, detail,
  queue_tab, CASE WHEN shown_ids IS NOT NULL THEN line END AS named_line,
  ${CLOSING_LINE}`;
const SELECT = `SELECT ${COLUMNS_READ} FROM candidate_lookup_audit`;

/** A page of rows, newest first (ties by the order they were indexed), after the cursor `d.<ms>.<seq>`. */
export async function searchTable(
  db: Database,
  filter: SearchFilter,
  page: { limit: number; cursor?: string; shown?: boolean },
): Promise<{ rows: AuditRow[]; next?: string }> {
  const { seqs: _seqs, ...found } = await searchTableInOrder(db, filter, page);
  return found;
}

/**
 * searchTable's page, with each row's place in the order the table took the lines (`seq`, as text: a bigint);
 * with `shown` (the audit page's), a queue view's row lists the candidates it showed.
 */
export async function searchTableInOrder(
  db: Database,
  filter: SearchFilter,
  page: { limit: number; cursor?: string; shown?: boolean },
): Promise<{ rows: AuditRow[]; seqs: string[]; next?: string }> {
  const { where, params } = conditionsOf(filter);
  const cursor = /^d\.(\d{1,15})\.(\d{1,19})$/.exec(page.cursor ?? '');
  if (cursor) {
    params.push(new Date(Number(cursor[1])).toISOString(), cursor[2]!);
    where.push(`(time, seq) < ($${params.length - 1}::timestamptz, $${params.length}::bigint)`);
  }
  params.push(page.limit + 1);
  const sql = `${SELECT}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY time DESC, seq DESC LIMIT $${params.length}`;
  const { rows } = await db.query<RowRecord>(sql, params);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    rows: shown.map((record) => rowOfRecord(record, page.shown === true)),
    seqs: shown.map((record) => record.seq),
    ...(rows.length > page.limit && last ? { next: `d.${last.time.getTime()}.${last.seq}` } : {}),
  };
}

function rowOfRecord(record: RowRecord, withShown: boolean): AuditRow {
  const { seq: _seq, time, candidate_id, request_id, queue_tab, named_line, closing_line, ...rest } = record;
  const line = named_line ? lineOf(named_line) : undefined;
  const queueOnly = line && queue_tab !== null ? queueOnlyOf(line) : [];
  const shown: ShownIds[] = line && withShown ? shownCandidatesOf(line) : [];
  return {
    ...rest,
    time: time.toISOString(),
    id: candidate_id,
    requestId: request_id,
    ...(queue_tab === null ? {} : { queueTab: queue_tab }),
    ...(queueOnly.length > 0 ? { queueOnly } : {}),
    ...(shown.length > 0 ? { shown } : {}),
    ...closingOfLine(closing_line ? lineOf(closing_line) : undefined),
  };
}
