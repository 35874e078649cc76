import { describe, expect, it } from 'vitest';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import { actionText } from '../../src/kyc/view/audit-labels.ts';
import { SANDBOX_KEYS } from '../../src/server/sandbox/sandbox.ts';
import { activity, as, fileLines, GATEWAY, LEAD, search } from './audit-trail-helpers.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE } from './postgres-fixture.ts';
import { pageOf } from './queue-fixture.ts';
import { sandboxAndPostgres } from './queue-view-fixture.ts';

/**
 * "Which candidates did a user see in the queue?" A view's line said "Listed applicants, filter waiting,
 * skip 0, 50 records" and named its candidates only when a row carried personal data (a name, a
 * certificate's outcome): a support user's view of statuses, dates and ids named nobody, so a search for
 * `saw_in_queue` found nothing and a candidate nobody opened, but many saw in the queue, had an empty
 * Activity. Every view now names every row it showed, by its ids only, in the files and in the table alike.
 */
const SAM = as('sam', 'support');
const { database, closing, sandbox } = sandboxAndPostgres();

/** An instance whose crawler reads the sandbox's list into the queue index: rows nobody looked up. */
async function instance(env: Record<string, string> = {}): Promise<Instance> {
  const { url, clientId } = sandbox();
  const keys = { KYC_API_KEY: SANDBOX_KEYS.full, KYC_API_KEY_STATUS: SANDBOX_KEYS.status };
  const app = await startInstance({ KYC_BASE_URL: url, KYC_CLIENT_ID: clientId, ...keys, ...env }, { file: GATEWAY, crawl: true });
  closing.push(app);
  return app;
}

/** Sam's view of the whole queue (the All tab), once the crawler has filled it: its rows. */
async function samViewsTheQueue(app: Instance): Promise<Applicant[]> {
  let rows: Applicant[] = [];
  await expect
    .poll(
      async () => {
        rows = pageOf(await app.request('/api/applicants?skip=0&limit=50', { headers: SAM })).records;
        return rows.length;
      },
      { timeout: 30_000, interval: 2000 },
    )
    .toBeGreaterThan(1);
  return rows;
}

/** What a lead finds of sam's last view: by each candidate it showed, in the search and in that candidate's Activity. */
async function expectSamsViewFound(app: Instance, rows: readonly Applicant[]): Promise<void> {
  const lines = fileLines(app.auditLog).filter((line) => line.kind === 'list' && line.user === 'sam');
  const shown = rows.map(({ refId, recordId }) => ({ ...(refId ? { refId } : {}), ...(recordId ? { recordId } : {}) }));
  // Ids only: the line holds no status, date or name of any row.
  expect(lines.at(-1)).toMatchObject({ filter: 'all', records: rows.length, candidates: shown, personalData: false });
  expect(JSON.stringify(lines.at(-1))).not.toContain('Date');
  for (const row of [rows[0]!, rows.at(-1)!]) {
    const found = await search(app, { refId: row.refId!, action: 'saw_in_queue', user: 'sam' });
    expect(found.rows.map((hit) => [hit.user, hit.queueTab])).toContainEqual(['sam', 'all']);
    expect(found.rows.at(-1)!.shown).toEqual(shown);
    expect(found.rows.at(-1)!.detail).toBe(`filter all, skip 0, ${rows.length} records; their ids in the line (status-level fields only)`);
    // Nobody opened this candidate: their Activity is the view alone, "sam saw them in the queue".
    const seen = (await activity(app, { recordId: row.recordId! }, LEAD)).rows;
    expect(seen.map((hit) => [hit.user, hit.action, actionText(hit)])).toEqual(
      seen.map(() => ['sam', 'list', 'Saw in the queue (All tab)']),
    );
    expect(seen.length).toBeGreaterThan(0);
  }
}

describe('a support user’s view of the queue names whom it showed', () => {
  it('sam’s view of the queue is found by the id of each candidate it showed, and in their Activity (files)', async () => {
    const app = await instance();
    const rows = await samViewsTheQueue(app);
    await expectSamsViewFound(app, rows);
    expect((await search(app, { action: 'saw_in_queue', user: 'sam' })).source.kind).toBe('files');
  }, 60_000);
});

describe.skipIf(!hasPostgres)(`the same in the audit table${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it('sam’s view is found by each candidate’s id, and in their Activity, read from the table', async () => {
    const app = await instance({ DATABASE_URL: await database(), AUDIT_INSTANCE: 'app1' });
    const rows = await samViewsTheQueue(app);
    await expectSamsViewFound(app, rows);
    expect((await search(app, { action: 'saw_in_queue', user: 'sam' })).source.kind).toBe('database');
  }, 60_000);
});
