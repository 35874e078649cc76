import { describe, expect, it } from 'vitest';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import { restOfTab } from '../../src/server/lookup/crawler-pages.ts';
import type { ListPage } from '../../src/server/lookup/crawler-list.ts';
import { CrawlPool, realClock } from '../../src/server/lookup/crawler-pool.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { countTurns } from '../support/event-loop-turns.ts';

/**
 * A list that ignores `limit` (6,000 records a page), claims ten million and gives new ids each time,
 * read with the index in memory: the crawler learnt a window of 32 such pages in a row without giving
 * the event loop a turn (`/healthz` waited 3 to 6 s every 8 to 10 s), and held 192,000 records at once.
 */

const BASE = Date.parse('2026-05-01T00:00:00.000Z');

function records(round: number, count: number): Applicant[] {
  return Array.from({ length: count }, (_, i) => ({
    status: 'waiting',
    recordId: `rec-${round}-${i}`,
    refId: `ref-${round}-${i}`,
    since: new Date(BASE + i * 60_000).toISOString(),
  })) as Applicant[];
}

async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  const turns = countTurns();
  const result = await work();
  return { result, turns: turns() };
}

describe('attack: a list that ignores limit, 6,000 new records a page', () => {
  it("a page's records are learnt a few hundred a turn of the event loop, each learnt as before", async () => {
    const index = createQueueIndex(createMemoryQueueIndexStore());
    const page = records(0, 6000);
    const { result, turns } = await turnsDuring(() => index.learnListed('default', page, { listedAt: BASE, position: 0 }));
    // 500 a turn: at least eleven turns for other work while the page is learnt (none before).
    expect(turns).toBeGreaterThanOrEqual(11);
    expect(result).toHaveLength(6000);
    expect(new Set(result.map((one) => one?.member)).size).toBe(6000);
    expect(result.every((one) => one !== undefined)).toBe(true);
    expect((await index.store.size('default')).entries).toBe(6000);
  });

  it('evicting thousands past the bound gives the event loop turns too', async () => {
    const index = createQueueIndex(createMemoryQueueIndexStore(), { bound: () => ({ maxEntries: 500, maxBytes: 10 ** 9 }) });
    await index.learnListed('default', records(0, 450), { listedAt: BASE, position: 0 });
    const { turns } = await turnsDuring(() => index.learnListed('default', records(1, 6000), { listedAt: BASE, position: 0 }));
    expect(turns).toBeGreaterThanOrEqual(11);
    expect((await index.store.size('default')).entries).toBeLessThanOrEqual(500);
  });

  it('the crawler asks one such page at a time (a window holds at most 3,200 records), and learns a page a turn', async () => {
    const stop = new AbortController();
    const pool = new CrawlPool({ perSecond: 1000, concurrency: 8, clock: realClock, pausedUntil: () => 0, signal: stop.signal });
    let asked = 0;
    let inFlight = 0;
    let most = 0;
    const fetchPage = async (_filter: unknown, skip: number): Promise<ListPage> => {
      asked++;
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      const served = skip >= 60_000 ? 0 : 6000;
      return { ok: true, records: records(skip, served), total: 10_000_000, served, askedAt: BASE };
    };
    const first = await fetchPage(undefined, 0);
    let learnt = 0;
    const turnsAtLearn: number[] = [];
    const turns = countTurns();
    const ended = await restOfTab(
      { fetchPage, pool, signal: stop.signal },
      undefined,
      first as Extract<ListPage, { ok: true }>,
      async (page) => {
        learnt += page.served;
        turnsAtLearn.push(turns.soFar());
      },
    );
    turns();
    stop.abort();
    expect(ended).not.toBeUndefined();
    expect(learnt).toBeGreaterThanOrEqual(54_000);
    expect(asked).toBeGreaterThanOrEqual(10);
    // Before: 32 pages asked at once, 192,000 records held, all learnt in one turn.
    expect(most).toBe(1);
    for (let i = 1; i < turnsAtLearn.length; i++) expect(turnsAtLearn[i]!).toBeGreaterThan(turnsAtLearn[i - 1]!);
  });
});
