import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ApplicantFilter, type ApplicantsPage, type ApplicantsQuery, statusDateField } from '../../src/kyc/contract/applicants.ts';
import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { applyMove, moveOf, type PageList } from '../../src/app/applicants/queue-move.ts';
import { learnPlace } from '../../src/server/live/delivery-confirm.ts';
import { readView } from '../../src/server/lookup/queue-view.ts';
import { createQueueIndex, type QueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { readWhole } from './queue-fixture.ts';

/**
 * Issue 32: a live event moves one row on the pages of the queue, without a view asked again. Applied to
 * a page the server answered before the change, the page must stay a window of the tab's order as the
 * server answers it after the change (the rows the page can know, in their places), and every count must
 * be the server's own recount of the same data: the event (filled by the server's own learnPlace) and
 * the page (the server's own readView) are the server's, the move the page's.
 */

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const SLA_HOURS = 48;
const HOUR = 3_600_000;
const STATUSES = ['waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'incomplete', 'on_hold'] as const;

interface Candidate {
  id: string;
  status: string;
  /** Hours before NOW it entered its status; undefined: not known. */
  hours: number | undefined;
  certificate: string | undefined;
}

const hours = fc.option(fc.oneof(fc.constantFrom(10, 47, 49, 60), fc.integer({ min: 0, max: 100 })), { nil: undefined, freq: 4 });
const candidates = fc
  .uniqueArray(
    fc.record({
      id: fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', 'é'), minLength: 1, maxLength: 3 }),
      status: fc.constantFrom(...STATUSES),
      hours,
      certificate: fc.constantFrom(undefined, 'clear', 'consider'),
    }),
    { selector: (candidate) => candidate.id, maxLength: 40 },
  )
  .map((list) => list as Candidate[]);

const lists = fc.oneof(
  fc.record({ tab: fc.constantFrom<ApplicantFilter | undefined>(undefined, 'waiting', 'approved', 'incomplete') }),
  fc.record({ tab: fc.constantFrom<ApplicantFilter>('waiting', 'inreview'), overSla: fc.constant(true) }),
  fc.record({ tab: fc.constantFrom<ApplicantFilter | undefined>(undefined, 'waiting', 'approved'), attention: fc.constant(true) }),
) as fc.Arbitrary<PageList>;

/** A candidate's change: one of the list (or one the index never saw), to a status and a date. */
const moves = fc.record({
  pick: fc.nat(),
  fresh: fc.boolean(),
  status: fc.constantFrom(...STATUSES),
  hours,
});

const date = (h: number | undefined) => (h === undefined ? undefined : NOW - h * HOUR);

async function fill(index: QueueIndex, environment: string, list: readonly Candidate[]) {
  await index.learnListed(
    environment,
    list.map((candidate) => ({ status: candidate.status, recordId: candidate.id })),
    { listedAt: NOW, position: 0 },
  );
  for (const candidate of list) {
    const since = date(candidate.hours);
    await index.learnRecord(environment, {
      recordId: candidate.id,
      status: candidate.status,
      isArchived: false,
      ...(since === undefined ? {} : { since }),
      ...(candidate.certificate ? { certificate: candidate.certificate } : {}),
    });
  }
  await readWhole(index.store, environment, NOW);
}

async function view(index: QueueIndex, environment: string, list: PageList, skip: number, limit: number): Promise<ApplicantsPage> {
  const query: ApplicantsQuery = { status: list.tab, skip, limit, counts: true, overSla: list.overSla, attention: list.attention };
  const answer = await readView(index.store, environment, { query, slaHours: SLA_HOURS, now: NOW, compliance: true });
  if (!answer.ok) throw new Error(answer.failure.message);
  return answer.data;
}

/** The whole list as the server orders it, by id. */
async function whole(index: QueueIndex, environment: string, list: PageList): Promise<string[]> {
  return (await view(index, environment, list, 0, 100)).records.map((row) => row.recordId!);
}

/** Whether `part` appears in `all` in the same order. */
const isSubsequence = (part: readonly string[], all: readonly string[]) => {
  let at = 0;
  for (const one of all) if (one === part[at]) at++;
  return at === part.length;
};

const figures = (page: ApplicantsPage) => ({
  total: page.total,
  counts: page.counts,
  overSlaByTab: page.overSlaByTab,
  attentionByTab: page.attentionByTab,
  overSla: page.overSla,
  order: page.order,
  dated: page.index?.dated,
  of: page.index?.of,
  undated: page.index?.undated,
});

describe('a live event applied to a cached page of the queue, as a property (issue 32)', () => {
  it('property: the page stays a window of the order the server answers after the change, and its counts are the server’s recount', async () => {
    let run = 0;
    const index = createQueueIndex(createMemoryQueueIndexStore());
    await fc.assert(
      fc.asyncProperty(
        candidates,
        lists,
        moves,
        fc.integer({ min: 1, max: 6 }),
        fc.nat({ max: 6 }),
        async (list, tab, change, limit, page) => {
          const environment = `env-${run++}`;
          await fill(index, environment, list);
          const moved = change.fresh || list.length === 0 ? undefined : list[change.pick % list.length]!;
          const id = moved?.id ?? 'new-one';
          const skip = page * limit;
          const before = await view(index, environment, tab, skip, limit);
          // The row as the compliance user's pages showed it (its certificate), when it was listed.
          const seen = (await view(index, environment, { tab: undefined }, 0, 100)).records.find((row) => row.recordId === id);
          const since = date(change.hours);
          const record = {
            recordId: id,
            status: change.status,
            isArchived: false,
            ...(since === undefined ? {} : { [statusDateField(change.status)]: new Date(since).toISOString() }),
          } as unknown as CandidateRecord;
          const place = await learnPlace(index, environment, record);
          const event: LiveEvent = {
            environment,
            event: 'x',
            refId: null,
            recordId: id,
            status: change.status,
            isArchived: false,
            at: '',
            ...place,
          };
          const move = moveOf(event, seen);
          // The index kept a newer status than the record's: the page asks for its view again instead.
          if (place.previousStatus === undefined) {
            expect(move).toBeUndefined();
            return;
          }
          const after = await view(index, environment, tab, skip, limit);
          const order = await whole(index, environment, tab);
          const { page: applied, start } = applyMove(before, tab, move!, { now: NOW });
          expect(figures(applied)).toEqual(figures(after));
          const rows = applied.records.map((row) => row.recordId!);
          expect(rows.length).toBeLessThanOrEqual(limit);
          expect(isSubsequence(rows, order)).toBe(true);
          if (start !== null) {
            // Where the page knows the rank of its first row, its rows are the list's from there, in the page's window.
            expect(start).toBeGreaterThanOrEqual(skip);
            expect(start + rows.length).toBeLessThanOrEqual(skip + limit);
            expect(rows).toEqual(order.slice(start, start + rows.length));
          }
          const mine = applied.records.find((row) => row.recordId === id);
          // In its new place, with the date the index holds (the record's, unless the index knew a later one).
          if (mine) expect(mine).toEqual(after.records.find((row) => row.recordId === id) ?? mine);
          if (mine) expect(mine).toMatchObject({ status: change.status, ...(place.since ? { since: place.since } : {}) });
        },
      ),
      { numRuns: 1000 },
    );
  }, 120_000);
});
