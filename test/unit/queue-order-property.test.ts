import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APPLICANTS_MAX_LIMIT, type Applicant } from '../../src/kyc/contract/applicants.ts';
import type { QueueFiller } from '../../src/server/lookup/queue-filler.ts';
import { type FetchOnce, queuePage } from '../../src/server/lookup/queue-page.ts';
import { createQueueIndex, type QueueKey } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore, type QueueFacts } from '../../src/server/state/queue-index-store.ts';

const noFiller: QueueFiller = { want: () => {}, drain: async () => 0, pending: () => 0, close: () => {} };
const BASE = Date.parse('2026-01-01T00:00:00.000Z');

describe('the queue order, as a property', () => {
  it('is oldest first across pages, for any set of dates (some unknown, some equal) and any page size', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Each candidate's waiting date in minutes after BASE, or unknown; few distinct values, so that ties happen.
        fc.array(fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }), { maxLength: 260 }),
        fc.integer({ min: 1, max: APPLICANTS_MAX_LIMIT }),
        async (minutes, size) => {
          const list: Applicant[] = minutes.map((_, i) => ({ status: 'waiting', isArchived: false, recordId: `r${i}` }));
          const store = createMemoryQueueIndexStore();
          const facts = new Map<QueueKey, QueueFacts>();
          minutes.forEach((minute, i) => {
            if (minute !== undefined)
              facts.set(`recordId:r${i}`, { status: 'waiting', dates: { waitingDate: new Date(BASE + minute * 60_000).toISOString() } });
          });
          await store.write('env', facts);
          const queue = { index: createQueueIndex(store), filler: noFiller, indexMax: 1000, slaHours: undefined };
          // The service serves its own order, at most 100 a request.
          const fetchOnce: FetchOnce = async ({ skip, limit }) => ({
            ok: true,
            page: { records: list.slice(skip, skip + Math.min(limit, APPLICANTS_MAX_LIMIT)), total: list.length, upstreamStatus: 200 },
          });
          const rows: Applicant[] = [];
          for (let skip = 0; skip === 0 || skip < list.length; skip += size) {
            const query = { status: 'waiting' as const, skip, limit: size };
            const fetched = await queuePage('env', queue, query, fetchOnce, () => fetchOnce(query));
            if (!fetched.ok) throw new Error('no page');
            expect(fetched.page.order).toEqual({ by: 'age', known: facts.size, of: list.length });
            rows.push(...fetched.page.records);
          }
          // Every candidate once; the known ones first, oldest first (ties in the service's order); then the others in the service's order.
          expect(rows.map((r) => r.recordId).sort()).toEqual(list.map((r) => r.recordId).sort());
          const known = list
            .map((r, i) => ({ id: r.recordId, minute: minutes[i], i }))
            .filter((r) => r.minute !== undefined)
            .sort((a, b) => a.minute! - b.minute! || a.i - b.i)
            .map((r) => r.id);
          const unknown = list.filter((_, i) => minutes[i] === undefined).map((r) => r.recordId);
          expect(rows.map((r) => r.recordId)).toEqual([...known, ...unknown]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
