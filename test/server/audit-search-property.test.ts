import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_FILTER_ACTIONS,
  AUDIT_LEVELS,
  AUDIT_PATHS,
  AUDIT_WHO,
  type AuditQuery,
  type AuditRow,
} from '../../src/kyc/contract/audit-search.ts';
import { spreadsheetSafe } from '../../src/kyc/contract/csv.ts';
import { lineHash } from '../../src/server/audit/audit-chain.ts';
import { type AuditLine, createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { AUDIT_CSV_COLUMNS } from '../../src/server/trail/audit-csv.ts';
import { type AuditStore, createAuditStore } from '../../src/server/trail/audit-store.ts';
import { LEAD, parseCsv, shownOfCell } from './audit-trail-helpers.ts';
import { rawRequest, startTestApp, type TestApp } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * The audit page's filters and its CSV export return exactly the lines that filtering the JSONL file
 * directly finds (issue 34), newest first, page after page: over the files without a database, and over
 * the table with one. The lines are written by the real writer (chained), of every kind, by users and
 * with ids that include a spreadsheet's formula characters; the reference below reads the file itself.
 */

const USERS = [
  'ana',
  'Ana',
  'ANA@Example.org',
  'ana@example.ORG',
  'ben',
  'Émile',
  'émile',
  'ÉLODIE',
  'élodie',
  // The Kelvin sign and İ, whose small letters are ASCII (k, i): they stay as they are; the dotless ı, no capital's.
  '\u212Aelvin',
  'kelvin',
  'İlker',
  'ilker',
  'ılker',
  '=HYPERLINK("x")',
  '(webhook)',
  '(queue-index)',
  '(webhook-check)',
  '(someone)',
];
/**
 * A name as a search by user compares it, written out: each character's small letter when it is one
 * character (É and é alike), but no letter outside ASCII for one inside it (the Kelvin sign stays).
 */
const smallOf = (c: string) => {
  const small = c.toLowerCase();
  return [...small].length === 1 && !(c > '\x7f' && small <= '\x7f') ? small : c;
};
const folded = (name: unknown) => (typeof name === 'string' ? [...name].map(smallOf).join('') : name);
/** This server's own names, written out: the reference does not read the code's list. */
const SERVER = ['(queue-index)', '(webhook-check)', '(webhook)'];
const IDS = ['cust_1', 'cust_2', '+31 6 1234', '@sum', 'a,b"c'];
const ENVS = ['default', 'prod'];
const ROLES = ['compliance', 'support', 'lead'] as const;
const KINDS = ['refId', 'recordId'] as const;
const START = Date.now() - 3 * 86_400_000;

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const lineArb: fc.Arbitrary<Omit<AuditLine, 'time'>> = fc.oneof(
  fc.record({
    user: pick(USERS),
    role: pick(ROLES),
    env: pick(ENVS),
    kind: pick(KINDS),
    id: pick(IDS),
    status: pick([200, 404, 429]),
    code: fc.constant(null),
    upstreamStatus: fc.constant(200),
    level: pick([...AUDIT_LEVELS, null]),
    durationMs: fc.nat(100),
    batch: fc.option(fc.constant(true as const), { nil: undefined }),
    statusCheck: fc.option(fc.constant(true as const), { nil: undefined }),
    // Refused as another candidate's record (other_candidate): a search by the id it gave finds it too.
    answeredId: fc.option(pick(IDS), { nil: undefined, freq: 4 }),
  }),
  fc.record({
    user: pick(USERS),
    role: pick(ROLES),
    env: pick(ENVS),
    kind: fc.constant('export' as const),
    what: pick(['summary', 'reply', 'print', 'certificate', 'file'] as const),
    lookupKind: pick(KINDS),
    id: pick(IDS),
  }),
  fc.record({
    user: pick(USERS),
    kind: fc.constant('refusals' as const),
    count: fc.nat(9),
    codes: fc.constant({}),
    from: fc.constant(''),
    to: fc.constant(''),
  }),
  fc.record({
    kind: fc.constant('webhook' as const),
    env: pick(ENVS),
    event: fc.constant('review.approved'),
    refId: fc.option(pick(IDS), { nil: null }),
    recordId: fc.option(pick(IDS), { nil: null }),
    status: fc.constant('approved'),
    isArchived: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('note' as const), note: fc.constant('a note') }),
  // A queue view, naming its candidates by the ids their rows carried (a line of before: only when it showed personal data).
  fc.record({
    user: pick(USERS),
    role: pick(ROLES),
    env: pick(ENVS),
    kind: fc.constant('list' as const),
    filter: pick(['blocked', 'all']),
    skip: fc.constant(0),
    limit: fc.constant(50),
    records: fc.nat(3),
    status: fc.constant(200),
    code: fc.constant(null),
    upstreamStatus: fc.constant(null),
    level: fc.constant(null),
    durationMs: fc.nat(100),
    candidates: fc.option(
      fc.array(fc.record({ refId: pick(IDS), recordId: pick(IDS) }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 }),
      { nil: undefined },
    ),
    // Whether its rows carried personal data: absent on a line of before, which named its candidates only then.
    personalData: fc.option(fc.boolean(), { nil: undefined }),
  }),
);

const FILTERS = {
  user: pick(USERS),
  refId: pick(IDS),
  recordId: pick(IDS),
  action: pick(AUDIT_FILTER_ACTIONS),
  level: pick(AUDIT_LEVELS),
  env: pick(ENVS),
  who: pick(AUDIT_WHO),
  from: fc.integer({ min: 0, max: 400 }).map((n) => new Date(START + n * 1000).toISOString()),
  to: fc.integer({ min: 0, max: 400 }).map((n) => new Date(START + n * 1000).toISOString()),
};
/** One to three filters at a time: more would seldom leave a line to find. */
const queryArb: fc.Arbitrary<AuditQuery> = fc
  .shuffledSubarray(Object.keys(FILTERS) as Array<keyof typeof FILTERS>, { minLength: 0, maxLength: 3 })
  .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, FILTERS[key]])) as Record<string, fc.Arbitrary<string>>))
  .map((query) => query as AuditQuery);

type Parsed = Record<string, unknown> & { hash: string };

/** Which candidates a line names, read from the JSON as it stands (the reference: audit-row.ts is not used). */
function candidatesOf(line: Parsed): Array<[string, unknown]> {
  if (line.kind === 'refId' || line.kind === 'recordId') {
    const answered: Array<[string, unknown]> = typeof line.answeredId === 'string' ? [[line.kind, line.answeredId]] : [];
    return [...(line.id === '' ? [] : [[line.kind, line.id] as [string, unknown]]), ...answered];
  }
  if (line.kind === 'export') return [[line.lookupKind as string, line.id]];
  if (line.kind === 'webhook') return line.refId ? [['refId', line.refId]] : line.recordId ? [['recordId', line.recordId]] : [];
  if (line.kind === 'list' && Array.isArray(line.candidates)) {
    return (line.candidates as Array<Record<string, string>>).flatMap((ids) =>
      Object.entries(ids).filter(([kind]) => kind === 'refId' || kind === 'recordId'),
    );
  }
  return [];
}

function actionOf(line: Parsed): string {
  if (line.kind === 'refId' || line.kind === 'recordId') return line.batch ? 'batch' : line.statusCheck ? 'status_check' : 'lookup';
  if (line.kind === 'export') {
    return { summary: 'copy_summary', reply: 'copy_reply', print: 'print', certificate: 'copy_certificate', file: 'save_file' }[
      line.what as string
    ]!;
  }
  // A queue view that names a candidate is "Saw in the queue"; one that names nobody "Listed applicants".
  if (line.kind === 'list') return shownOf(line) ? 'saw_in_queue' : 'list';
  return line.kind as string;
}

/** The candidates a queue view names, each by the ids written for it (none: undefined), as the audit page lists them. */
function shownOf(line: Parsed): Array<Record<string, string>> | undefined {
  const named = ((line.candidates ?? []) as Array<Record<string, string>>).filter((ids) => ids.refId || ids.recordId);
  return named.length > 0 ? named : undefined;
}

/** The reference: the file's lines that the filter names, newest first. */
function expected(lines: Parsed[], q: AuditQuery): string[] {
  return lines
    .filter((line) => {
      const named = candidatesOf(line);
      const byId = (kind: string, id: string | undefined) => id !== undefined && named.some(([k, v]) => k === kind && v === id);
      const time = Date.parse(line.time as string);
      return (
        (q.user === undefined || (line.user !== undefined && folded(line.user) === folded(q.user))) &&
        (q.who === undefined || (q.who === 'server') === (line.user === undefined || SERVER.includes(line.user as string))) &&
        (q.action === undefined || actionOf(line) === q.action) &&
        (q.level === undefined || line.level === q.level) &&
        (q.env === undefined || line.env === q.env) &&
        ((q.refId === undefined && q.recordId === undefined) || byId('refId', q.refId) || byId('recordId', q.recordId)) &&
        (q.from === undefined || time >= Date.parse(q.from)) &&
        (q.to === undefined || time < Date.parse(q.to))
      );
    })
    .map((line) => line.hash)
    .reverse();
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-audit-property-'));
const file = path.join(dir, 'audit.jsonl');
let lines: Parsed[] = [];
let postgres: RunningPostgres | undefined;
const stores: AuditStore[] = [];
const apps: TestApp[] = [];

/** A test app whose audit page reads `store`; its own audit lines go elsewhere, so the file under test stays as written. */
async function appOn(store: AuditStore): Promise<TestApp> {
  const app = await startTestApp({
    upstream: { baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' },
    audit: memoryAuditLog(),
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    trail: store,
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  const written = fc.sample(fc.array(lineArb, { minLength: 250, maxLength: 250 }), { numRuns: 1, seed: 34 })[0]!;
  const log = createAuditLog(file);
  for (const [index, line] of written.entries()) {
    await log.record({ time: new Date(START + index * 1500).toISOString(), ...line } as AuditLine);
  }
  await log.close();
  lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((text) => ({ ...(JSON.parse(text) as Record<string, unknown>), hash: lineHash(text) }));
  if (hasPostgres) postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await Promise.all(stores.map((store) => store.close()));
  await postgres?.destroy();
});

async function searchAll(app: TestApp, q: AuditQuery, limit: number): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let cursor: string | undefined;
  do {
    const res = await rawRequest(app.port, AUDIT_PATHS.search, {
      method: 'POST',
      headers: { ...LEAD, 'content-type': 'application/json' },
      body: JSON.stringify({ ...q, limit, ...(cursor ? { cursor } : {}) }),
    });
    const page = JSON.parse(res.body) as { rows: AuditRow[]; next?: string };
    rows.push(...page.rows);
    cursor = page.next;
  } while (cursor);
  return rows;
}

async function exported(app: TestApp, q: AuditQuery): Promise<string[][]> {
  const res = await rawRequest(app.port, AUDIT_PATHS.export, {
    method: 'POST',
    headers: { ...LEAD, 'content-type': 'application/json' },
    body: JSON.stringify(q),
  });
  expect(res.status).toBe(200);
  return parseCsv(res.body);
}

async function holdsToTheFile(app: TestApp): Promise<void> {
  let found = 0;
  await fc.assert(
    fc.asyncProperty(queryArb, fc.integer({ min: 2, max: 40 }), async (q, limit) => {
      const want = expected(lines, q);
      if (want.length > 0) found += 1;
      const rows = await searchAll(app, q, limit);
      expect(rows.map((row) => row.hash)).toEqual(want);
      const byHash = new Map(lines.map((line) => [line.hash, line]));
      expect(rows.map((row) => row.shown)).toEqual(rows.map((row) => shownOf(byHash.get(row.hash)!)));
      const [header, ...csv] = await exported(app, q);
      expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
      const column = (name: (typeof AUDIT_CSV_COLUMNS)[number]) => AUDIT_CSV_COLUMNS.indexOf(name);
      expect(csv.map((cells) => cells[column('hash')])).toEqual(want);
      // The chain's mark, row for row as the search gives it.
      expect(csv.map((cells) => cells[column('unvouched')])).toEqual(rows.map((row) => (row.unvouched ? 'true' : '')));
      const users = new Map(lines.map((line) => [line.hash, line.user]));
      for (const cells of csv) {
        const user = users.get(cells[column('hash')]!);
        expect(cells[2]).toBe(typeof user === 'string' ? spreadsheetSafe(user) : '');
        // A queue view's row: the candidates its line names, read back from the one cell, and its tab.
        const line = byHash.get(cells[column('hash')]!)!;
        expect(shownOfCell(cells[column('shown')]!)).toEqual(shownOf(line) ?? []);
        expect(cells[column('queueTab')]).toBe(shownOf(line) ? spreadsheetSafe(line.filter as string) : '');
      }
    }),
    // Always among them: a user's capitals outside A to Z, which each reader once left unfolded.
    { numRuns: 100, examples: [[{ user: 'ÉLODIE' }, 7] as [AuditQuery, number], [{ user: 'émile' }, 3] as [AuditQuery, number]] },
  );
  // Most filters find lines: the property is about something.
  expect(found).toBeGreaterThan(50);
}

describe("the audit page's filters and CSV export against the JSONL file", () => {
  it('over the files (no database): exactly the matching lines, newest first, whatever the page size', async () => {
    const store = createAuditStore({ file, instance: 'app1', retentionDays: 36_500 });
    stores.push(store);
    await holdsToTheFile(await appOn(store));
  }, 120_000);

  it.skipIf(!hasPostgres)(
    `over the table in PostgreSQL: exactly the matching lines, newest first${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`,
    async () => {
      const url = await postgres!.database();
      const store = createAuditStore({ file, instance: 'app1', databaseUrl: url, retentionDays: 36_500 });
      stores.push(store);
      await expect
        .poll(
          async () =>
            (await queryOf<{ n: number }>(url, 'SELECT count(*)::int AS n FROM candidate_lookup_audit').catch(() => [{ n: 0 }]))[0]!.n,
          {
            timeout: 20_000,
          },
        )
        .toBe(lines.length);
      await holdsToTheFile(await appOn(store));
    },
    120_000,
  );
});
