import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICANT_FILTERS, APPLICANTS_MAX_LIMIT, type ApplicantFilter, type ApplicantsQuery } from '../../src/kyc/contract/applicants.ts';
import { readView } from '../../src/server/lookup/queue-view.ts';
import { NEWEST_FIRST_GROUPS } from '../../src/server/state/queue-entry.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createRedisQueueIndexStore } from '../../src/server/state/queue-index-redis.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { readWhole } from './queue-fixture.ts';

/**
 * Issue 32: a queue view is read from the index, and its order across pages and its counts must be those
 * of a plain sort of the same candidates, for any dates (equal ones, unknown ones) and any page size: in
 * memory and in Redis alike.
 */

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const SLA_HOURS = 48;
const HOUR = 3_600_000;

interface Candidate {
  id: string;
  status: ApplicantFilter;
  /** Hours before NOW it entered its status; undefined: not known (the older list has no dates). */
  hours: number | undefined;
}

/** Few statuses and few distinct ages, so that ties and every group happen; ids with characters beyond ASCII too. */
const candidates = fc
  .uniqueArray(
    fc.record({
      id: fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', 'é', '\u{1F600}', '\uFF21'), minLength: 1, maxLength: 4 }),
      status: fc.constantFrom<ApplicantFilter>('waiting', 'inreview', 'approved'),
      // Often one of a few ages, so that equal dates are common.
      hours: fc.option(fc.oneof(fc.constantFrom(10, 50, 60), fc.integer({ min: 0, max: 100 })), { nil: undefined }),
    }),
    { selector: (candidate) => candidate.id, maxLength: 220 },
  )
  .map((list) => list as Candidate[]);

/** Redis's order of equal scores: the members' UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The order a tab must show: the dated by their date (ties by member's bytes), oldest first or newest first, then the undated as listed. */
function expectedOrder(list: readonly Candidate[], status: ApplicantFilter): string[] {
  const member = (candidate: Candidate) => `recordId:${candidate.id}`;
  const mine = list.filter((candidate) => candidate.status === status);
  const dated = mine
    .filter((candidate) => candidate.hours !== undefined)
    .map((candidate) => ({ member: member(candidate), score: NOW - candidate.hours! * HOUR }))
    .sort((a, b) => a.score - b.score || byBytes(a.member, b.member));
  if (NEWEST_FIRST_GROUPS.includes(status)) dated.reverse();
  const undated = mine.filter((candidate) => candidate.hours === undefined).map(member);
  // Listed in `list`'s order, one position each: their scores are their places in the list.
  const positions = new Map(list.map((candidate, i) => [member(candidate), i]));
  undated.sort((a, b) => positions.get(a)! - positions.get(b)! || byBytes(a, b));
  return [...dated.map((one) => one.member), ...undated];
}

async function fill(store: QueueIndexStore, environment: string, list: readonly Candidate[]) {
  const index = createQueueIndex(store);
  // As the crawler learns them: listed (no dates) in the list's order, then the dates of some from their records.
  await index.learnListed(
    environment,
    list.map((candidate) => ({ status: candidate.status, recordId: candidate.id })),
    { listedAt: NOW, position: 0 },
  );
  for (const candidate of list) {
    if (candidate.hours !== undefined) {
      await index.learnRecord(environment, { recordId: candidate.id, status: candidate.status, since: NOW - candidate.hours * HOUR });
    }
  }
  await readWhole(store, environment, NOW);
}

async function wholeTab(store: QueueIndexStore, environment: string, status: ApplicantFilter, size: number) {
  const rows: string[] = [];
  let over: number | undefined;
  for (let skip = 0; ; skip += size) {
    const query: ApplicantsQuery = { status, skip, limit: size, counts: true };
    const view = await readView(store, environment, { query, slaHours: SLA_HOURS, now: NOW, compliance: false });
    if (!view.ok) throw new Error(view.failure.message);
    rows.push(...view.data.records.map((row) => `recordId:${row.recordId}`));
    over = view.data.overSla;
    if (skip + size >= view.data.total) return { rows, total: view.data.total, over, counts: view.data.counts };
  }
}

function property(store: () => QueueIndexStore) {
  let run = 0;
  return fc.asyncProperty(candidates, fc.integer({ min: 1, max: APPLICANTS_MAX_LIMIT }), async (list, size) => {
    const environment = `env-${run++}`;
    const index = store();
    await fill(index, environment, list);
    for (const status of ['waiting', 'inreview', 'approved'] as const) {
      const { rows, total, over, counts } = await wholeTab(index, environment, status, size);
      expect(rows).toEqual(expectedOrder(list, status));
      expect(total).toBe(list.filter((candidate) => candidate.status === status).length);
      const overSla = list.filter((c) => c.status === status && c.hours !== undefined && c.hours > SLA_HOURS).length;
      // Only the statuses reviewers work through have an SLA.
      expect(over).toEqual(status === 'approved' ? undefined : overSla);
      expect(counts?.all).toBe(list.length);
      for (const filter of APPLICANT_FILTERS) expect(counts?.[filter]).toBe(list.filter((c) => c.status === filter).length);
    }
  });
}

describe('the queue view read from the index, as a property (issue 32)', () => {
  it('property: in memory, every tab is the sort of its candidates across pages of any size, and its counts exact', async () => {
    const store = createMemoryQueueIndexStore();
    await fc.assert(
      property(() => store),
      { numRuns: 120 },
    );
  });

  describe.skipIf(!hasRedisServer)(hasRedisServer ? 'in Redis (a real redis-server)' : NO_REDIS_MESSAGE, () => {
    let redis: RunningRedis;
    let store: QueueIndexStore;
    beforeAll(async () => {
      redis = await startRedis();
      store = createRedisQueueIndexStore(redis.url);
    });
    afterAll(async () => {
      await store.close();
      await redis.stop();
    });

    it('property: in Redis, every tab is the sort of its candidates across pages of any size, and its counts exact', async () => {
      await fc.assert(
        property(() => store),
        { numRuns: 60 },
      );
    });
  });
});
