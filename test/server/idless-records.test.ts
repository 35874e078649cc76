import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { APPLICANT_FILTERS, statusDateField } from '../../src/kyc/contract/applicants.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { crawledListApp } from './list-upstream.ts';
import { pageOf, SUPPORT } from './queue-fixture.ts';

/**
 * A list record with a status but no id (no refId, recordId or `_id`) cannot be a row, as nothing can
 * open it, but it is a candidate of its status: the tab's count and over-SLA figure hold it, and the page
 * says so, rather than "Waiting: 0" of a candidate who has waited for months.
 */

const HOUR_MS = 3_600_000;
const SLA_HOURS = 48;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();

/** Ids the lookup refuses (checkId): too long, a control character, a lone surrogate, a dot-segment, blank. */
const BAD_IDS = [`long-${'x'.repeat(256)}`, 'crm\t42', 'a\u2028b', 'lone\ud800', '..', '   '];

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** The app on a fake service listing `records` as they are, its queue read once by the crawler. */
async function listApp(records: unknown[]) {
  const store = createMemoryQueueIndexStore();
  const app = await crawledListApp(records, store, closing);
  return { app, store };
}

const counted = async (app: Awaited<ReturnType<typeof listApp>>['app']) => pageOf(await app.get('/api/applicants?counts=1', SUPPORT));

describe('list records without an id', () => {
  it('the reviewer’s record without ids counts in Waiting and its over-SLA figure, and the page says so, in both list shapes', async () => {
    const waitingDate = ago(24 * 324);
    for (const record of [
      { status: 'waiting', isArchived: false, waitingDate },
      { status: 'waiting', isArchived: false, waitingDate, submitCount: 1, identities: { given_name: { type: 'string', value: 'Kwame' } } },
    ]) {
      const { app } = await listApp([record, { status: 'waiting', refId: 'ref-1', waitingDate: ago(1) }]);
      const all = await counted(app);
      expect(all.counts).toMatchObject({ all: 2, waiting: 2 });
      expect(all.overSlaByTab).toMatchObject({ waiting: 1 });
      const waiting = pageOf(await app.get('/api/applicants?status=waiting', SUPPORT));
      expect(waiting.records.map((row) => row.refId)).toEqual(['ref-1']);
      expect(waiting).toMatchObject({
        overSla: 1,
        idless: [{ status: 'waiting', count: 1, dated: 1, oldest: waitingDate, newest: waitingDate }],
      });
      // No longer "could not be read": it was read, and it is counted.
      expect(waiting.skipped).toBeUndefined();
      // Nothing personal of it is passed on.
      expect(JSON.stringify(waiting)).not.toContain('Kwame');
    }
  });

  it('a record without ids carrying a blockPassID is said to carry one, and the blockPassID itself is not kept', async () => {
    const { app, store } = await listApp([{ status: 'inreview', blockPassID: 'bp-secret-1', inreviewDate: ago(3) }]);
    const page = pageOf(await app.get('/api/applicants?status=inreview', SUPPORT));
    expect(page.idless).toEqual([expect.objectContaining({ status: 'inreview', count: 1, blockPassIDs: 1 })]);
    expect(JSON.stringify(await store.readMeta('default'))).not.toContain('bp-secret-1');
  });

  it('thousands of records without ids are kept as a few numbers: the index does not grow with them', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => ({ status: 'waiting', waitingDate: ago(1 + (i % 500)) }));
    const { app, store } = await listApp(many);
    expect((await counted(app)).counts).toMatchObject({ all: 2500, waiting: 2500 });
    const meta = JSON.stringify(await store.readMeta('default'));
    expect(meta.length).toBeLessThan(2000);
  });

  it('property: whatever ids the records carry, invalid ones too, every tab counts every record of its status, and the over-SLA figure is exact or a floor', async () => {
    const STATUSES = ['waiting', 'inreview', 'approved', 'incomplete', 'on_hold'] as const;
    const records = fc.array(
      fc.record({
        status: fc.constantFrom(...STATUSES),
        id: fc.constantFrom('none', 'refId', '_id', 'recordId'),
        // Ids no lookup takes, as a hostile or broken service may send them: they open nothing either.
        bad: fc.option(fc.constantFrom(...BAD_IDS), { nil: undefined }),
        badField: fc.constantFrom('refId', '_id', 'recordId'),
        hours: fc.option(fc.constantFrom(1, 47, 49, 300, 8000), { nil: undefined }),
        blockPassID: fc.boolean(),
      }),
      { maxLength: 25 },
    );
    await fc.assert(
      fc.asyncProperty(records, async (list) => {
        const listed = list.map((one, i) => ({
          status: one.status,
          ...(one.bad === undefined ? {} : { [one.badField]: one.bad }),
          ...(one.id === 'none' ? {} : { [one.id]: `id-${i}` }),
          ...(one.hours === undefined ? {} : { [statusDateField(one.status)]: ago(one.hours) }),
          ...(one.blockPassID ? { blockPassID: `bp-${i}` } : {}),
        }));
        const { app } = await listApp(listed);
        const view = await counted(app);
        // Never echoed: the answer names none of them (the short ones, '..' and blanks, could be anything's).
        for (const bad of BAD_IDS.filter((id) => id.length > 3))
          expect(JSON.stringify(view)).not.toContain(JSON.stringify(bad).slice(1, -1));
        expect(view.counts?.all).toBe(list.length);
        for (const filter of APPLICANT_FILTERS) expect(view.counts?.[filter]).toBe(list.filter((one) => one.status === filter).length);
        for (const tab of ['waiting', 'inreview'] as const) {
          const over = list.filter((one) => one.status === tab && one.hours !== undefined && one.hours > SLA_HOURS).length;
          const partial = view.overSlaPartialTabs?.includes(tab);
          if (partial) expect(view.overSlaByTab?.[tab]).toBeLessThanOrEqual(over);
          else expect(view.overSlaByTab?.[tab]).toBe(over);
        }
        await closing.pop()!();
      }),
      { numRuns: 25 },
    );
  });
});
