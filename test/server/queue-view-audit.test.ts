import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import type { AuditRow } from '../../src/kyc/contract/audit-search.ts';
import { actionText } from '../../src/kyc/view/audit-labels.ts';
import { runAuditVerify } from '../../src/server/audit/audit-verify.ts';
import type { SandboxCandidate } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { MIGRATIONS } from '../../src/server/state/postgres.ts';
import { activity, as, fileLines, GATEWAY, LEAD, lookUp, search } from './audit-trail-helpers.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { pageOf } from './queue-fixture.ts';
import { ANA, anaScreensUser7781, blockedTab, candidates, DAVE, sandboxAndPostgres, screened } from './queue-view-fixture.ts';

/**
 * "Who looked at whom" (a privacy audit's finding): a compliance user's view of the queue shows personal
 * data (a certificate's outcome such as potential_match), so its audit line names the candidates it
 * showed, and each one's Activity lists the view as "Saw in the queue", read from the files or from the
 * table. A support user's view (status-level fields only) names them too, said apart (queue-view-names.test.ts).
 */
const SAM = as('sam', 'support');
const { instance, database, closing } = sandboxAndPostgres();

/**
 * Ana's lookup tells the queue index user-7781's status and certificate (waited for on her own view);
 * then dave, compliance too, and sam, support, each open the blocked tab once.
 */
async function daveAndSamViewTheBlockedTab(app: Instance): Promise<void> {
  await anaScreensUser7781(app);
  const seen = pageOf(await blockedTab(app, DAVE)).records.find((row) => row.refId === 'user-7781');
  expect(seen).toMatchObject({ certificate: 'potential_match', recordId: screened.recordId });
  expect(pageOf(await blockedTab(app, SAM)).records.find((row) => row.refId === 'user-7781')).not.toHaveProperty('certificate');
}

/** The rows of user-7781's Activity, for a lead, by one id or both. */
async function activityOf(app: Instance, ids: { refId?: string; recordId?: string }): Promise<AuditRow[]> {
  return (await activity(app, ids, LEAD)).rows;
}

const byUser = (rows: readonly AuditRow[], user: string) => rows.filter((row) => row.user === user);

/** What the lead reads of dave's view, by the refId, the recordId or both, from wherever the trail is read. */
async function expectDaveInActivity(app: Instance): Promise<void> {
  for (const ids of [{ refId: 'user-7781' }, { recordId: screened.recordId }, { refId: 'user-7781', recordId: screened.recordId }]) {
    const dave = byUser(await activityOf(app, ids), 'dave');
    expect(dave, JSON.stringify(ids)).toEqual([
      expect.objectContaining({ action: 'list', role: 'compliance', queueTab: 'blocked', kind: null, id: null, status: 200 }),
    ]);
    expect(actionText(dave[0]!)).toBe('Saw in the queue (Blocked tab)');
    // The Activity is the candidate's own: it does not list whom else the view showed.
    expect(dave[0]).not.toHaveProperty('shown');
  }
  // The support user's view showed status-level fields only: in the Activity all the same, as seen in the queue.
  expect(byUser(await activityOf(app, { refId: 'user-7781' }), 'sam')).toEqual([
    expect.objectContaining({ action: 'list', role: 'support', queueTab: 'blocked' }),
  ]);
  // The audit page's search by the candidate finds the view too, under "Saw in the queue", with whom it showed.
  const found = await search(app, { refId: 'user-7781', action: 'saw_in_queue', user: 'dave' });
  expect(found.rows).toHaveLength(1);
  // "1 record", not "1 records" as before.
  expect(found.rows[0]!.detail).toBe('filter blocked, skip 0, 1 record; their ids in the line (personal data shown)');
  expect(found.rows[0]!.shown).toEqual([{ refId: 'user-7781', recordId: screened.recordId }]);
}

/**
 * Dave's views filtered to the rows needing attention, and to those over the SLA as well: each line says
 * which rows the view kept, and the audit page's row says it in the checkboxes' words (a line without the
 * fields, as every one before, reads as the whole tab, above).
 */
async function expectDaveFiltersInTheTrail(app: Instance): Promise<void> {
  for (const query of ['status=blocked&attention=1', 'status=waiting&overSla=1&attention=1']) {
    expect((await app.request(`/api/applicants?${query}&skip=0&limit=50`, { headers: DAVE })).status).toBe(200);
  }
  const lines = fileLines(app.auditLog).filter((line) => line.kind === 'list' && line.user === 'dave');
  // Before: nothing in the line told the whole tab from a filtered view.
  expect(lines.map((line) => [line.filter, line.overSla, line.attention])).toEqual([
    ['blocked', undefined, undefined],
    ['blocked', undefined, true],
    ['waiting', true, true],
  ]);
  // A view that showed personal data is "Saw in the queue", one that showed nobody "Listed applicants": both, newest first.
  const views = [
    ...(await search(app, { action: 'list', user: 'dave' })).rows,
    ...(await search(app, { action: 'saw_in_queue', user: 'dave' })).rows,
  ];
  views.sort((a, b) => b.time.localeCompare(a.time));
  expect(views.map((row) => row.detail?.replace(/, skip.*/, ''))).toEqual([
    'filter waiting (over SLA only, certificate needs attention)',
    'filter blocked (certificate needs attention)',
    'filter blocked',
  ]);
  // The candidate's Activity names the filter beside the tab, as the line records it: before, the filtered
  // view read "Saw in the queue (Blocked tab)", as one of the whole tab.
  const daves = byUser(await activityOf(app, { refId: 'user-7781' }), 'dave');
  expect(daves.map((row) => row.queueOnly)).toEqual([['attention'], undefined]);
  expect(daves.map((row) => actionText(row))).toEqual([
    'Saw in the queue (Blocked tab, certificate needs attention)',
    'Saw in the queue (Blocked tab)',
  ]);
}

/** The Action filter tells the two kinds of queue view apart, as the page labels them: each choice finds its own. */
async function expectViewsApartByAction(app: Instance): Promise<void> {
  const views = async (user: string, action: 'list' | 'saw_in_queue') => (await search(app, { user, action })).rows;
  expect(await views('dave', 'list')).toEqual([]);
  expect(await views('dave', 'saw_in_queue')).toEqual([expect.objectContaining({ action: 'list', queueTab: 'blocked' })]);
  // Sam's view of status-level fields names whom it showed too: "Saw in the queue", said to be status-level only.
  expect(await views('sam', 'list')).toEqual([]);
  const sams = await views('sam', 'saw_in_queue');
  expect(sams).toEqual([expect.objectContaining({ action: 'list', user: 'sam', queueTab: 'blocked' })]);
  expect(sams[0]!.detail).toBe('filter blocked, skip 0, 1 record; their ids in the line (status-level fields only)');
}

describe('a queue view that showed personal data, in its candidates’ Activity', () => {
  it("dave's view of the blocked tab (user-7781's potential_match) is in user-7781's Activity as seen in the queue; sam's support view too, said apart", async () => {
    const app = await instance();
    await daveAndSamViewTheBlockedTab(app);
    await expectViewsApartByAction(app);
    const lists = fileLines(app.auditLog).filter((line) => line.kind === 'list');
    const daves = lists.filter((line) => line.user === 'dave');
    expect(daves).toEqual([expect.objectContaining({ filter: 'blocked', records: 1 })]);
    expect(daves[0]!.candidates).toEqual([{ refId: 'user-7781', recordId: screened.recordId }]);
    expect(daves[0]!.personalData).toBe(true);
    expect(lists.find((line) => line.user === 'sam')).toMatchObject({ candidates: daves[0]!.candidates, personalData: false });
    await expectDaveInActivity(app);
    expect((await activity(app, { refId: 'user-7781' }, LEAD)).source.kind).toBe('files');
    // The file holds list lines of both forms, and its chain still verifies (npm run audit:verify).
    const out: string[] = [];
    expect(
      runAuditVerify(
        [app.auditLog],
        (line) => out.push(line),
        (line) => out.push(line),
      ),
    ).toBe(0);
    expect(out.join('\n')).toMatch(/^\d+ lines, chain intact$/);
  });

  it('a view filtered to attention=1 or overSla=1 says so in its line and on the audit page (files)', async () => {
    const app = await instance();
    await daveAndSamViewTheBlockedTab(app);
    await expectDaveFiltersInTheTrail(app);
  });

  it('attack: a page of 100 candidates with ids as long as ids go (256 characters, each outside the BMP) is named whole and bounded', async () => {
    // 150 blocked candidates besides user-7781, blocked before it: the tab's newest row is user-7781.
    const long = (prefix: string, i: number) => `${prefix}${i}-`.padEnd(256 - 200, '-') + '𝕏'.repeat(200);
    const crowd: SandboxCandidate[] = Array.from({ length: 150 }, (_, i) => ({
      summary: 'one of many',
      listOnly: true,
      record: {
        ...screened,
        refId: long('r', i),
        recordId: long('c', i),
        blockedDate: new Date(Date.parse(String(screened.blockedDate)) - (i + 1) * 60_000).toISOString(),
      },
    }));
    const crowded = await startSandbox({ candidates: [...candidates, ...crowd] });
    try {
      const app = await startInstance(
        {
          KYC_BASE_URL: crowded.url,
          KYC_CLIENT_ID: crowded.clientId,
          KYC_API_KEY: SANDBOX_KEYS.full,
          KYC_API_KEY_STATUS: SANDBOX_KEYS.status,
        },
        { file: GATEWAY, crawl: true },
      );
      closing.push(app);
      expect((await lookUp(app, 'user-7781', ANA)).status).toBe(200);
      const page = async (limit: number) => app.request(`/api/applicants?status=blocked&skip=0&limit=${limit}`, { headers: DAVE });
      // Once the crawler has read the tab: a whole page, user-7781's potential match on it.
      let rows: Applicant[] = [];
      await expect
        .poll(
          async () => {
            rows = pageOf(await page(100)).records;
            return rows.length === 100 && rows.some((row) => row.certificate === 'potential_match');
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      // Over the bound, refused: its line names nobody.
      expect((await page(101)).status).toBe(400);
      const daves = fileLines(app.auditLog).filter((line) => line.kind === 'list' && line.user === 'dave');
      expect(daves.at(-1)).not.toHaveProperty('candidates');
      // The last page answered names its 100 candidates, each id whole as its row carried it (no surrogate cut in half).
      const named = daves.at(-2)!.candidates as Array<{ refId: string; recordId: string }>;
      expect(named).toEqual(rows.map((row) => ({ refId: row.refId, recordId: row.recordId })));
      const longest = named.filter((ids) => [...ids.refId].length === 256 && [...ids.recordId].length === 256);
      expect(longest.length).toBeGreaterThan(90);
      const last = longest.at(-1)!;
      expect(byUser(await activityOf(app, { refId: last.refId }), 'dave').length).toBeGreaterThan(0);
      expect(byUser(await activityOf(app, { recordId: last.recordId }), 'dave')[0]).toMatchObject({ queueTab: 'blocked' });
      // The audit page lists whom that view showed: the 100, each id whole, in the page's order.
      expect((await search(app, { user: 'dave', refId: last.refId })).rows[0]!.shown).toEqual(named);
    } finally {
      await Promise.all(closing.splice(0).map((started) => started.close()));
      await crowded.close();
    }
  }, 60_000);
});

describe.skipIf(!hasPostgres)(`the same in the audit table${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it("dave's view of the blocked tab is in user-7781's Activity, read from the table along its own index", async () => {
    const url = await database();
    const app = await instance({ DATABASE_URL: url, AUDIT_INSTANCE: 'app1' });
    await daveAndSamViewTheBlockedTab(app);
    await expectDaveInActivity(app);
    await expectViewsApartByAction(app);
    expect((await activity(app, { refId: 'user-7781' }, LEAD)).source.kind).toBe('database');
    const rows = await queryOf<{ shown_ids: string[] }>(url, `SELECT shown_ids FROM candidate_lookup_audit WHERE "user" = 'dave'`);
    expect(rows).toEqual([{ shown_ids: ['refId:user-7781', `recordId:${screened.recordId}`] }]);
    // The planner's choice on a table this small is a scan: with scans off, the search's condition has its index.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        'EXPLAIN SELECT seq FROM candidate_lookup_audit WHERE shown_ids && $1::text[] ORDER BY time DESC, seq DESC LIMIT 101',
        [['refId:user-7781']],
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('candidate_lookup_audit_shown');
    } finally {
      await client.end();
    }
  }, 60_000);

  it('a view filtered to attention=1 or overSla=1 says so in the table as in the files', async () => {
    const app = await instance({ DATABASE_URL: await database(), AUDIT_INSTANCE: 'app1' });
    await daveAndSamViewTheBlockedTab(app);
    await expectDaveFiltersInTheTrail(app);
    expect((await search(app, { action: 'list', user: 'dave' })).source.kind).toBe('database');
  }, 60_000);

  it('a table of the version before (schema 2) is brought forward: its rows kept, the new columns added, and the views found', async () => {
    const url = await database();
    await queryOf(url, 'CREATE TABLE candidate_lookup_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const [index, sql] of MIGRATIONS.slice(0, 2).entries()) {
      await queryOf(url, sql);
      await queryOf(url, 'INSERT INTO candidate_lookup_schema (version) VALUES ($1)', [index + 1]);
    }
    // A list line of before, indexed by the version before: no candidates, no tab.
    await queryOf(
      url,
      `INSERT INTO candidate_lookup_audit (hash, instance, time, action, "user", role, env, status, detail, line)
       VALUES ('old', 'app0', now(), 'list', 'carl', 'compliance', 'default', 200, 'filter blocked, skip 0, 1 records', '{}')`,
    );
    const app = await instance({ DATABASE_URL: url, AUDIT_INSTANCE: 'app1' });
    await daveAndSamViewTheBlockedTab(app);
    await expectDaveInActivity(app);
    expect(await queryOf(url, 'SELECT max(version)::int AS version FROM candidate_lookup_schema')).toEqual([
      { version: MIGRATIONS.length },
    ]);
    const old = (await search(app, { user: 'carl' })).rows;
    expect(old).toEqual([expect.objectContaining({ hash: 'old', action: 'list', detail: 'filter blocked, skip 0, 1 records' })]);
    expect(old[0]).not.toHaveProperty('queueTab');
  }, 60_000);
});
