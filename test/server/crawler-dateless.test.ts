import { describe, expect, it } from 'vitest';
import { withClockAhead } from './clock.ts';
import { startTestApp } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { gateway, pageOf, SUPPORT } from './queue-fixture.ts';

/**
 * A row whose record holds no date to trust (none, a placeholder, one in the future) is looked up once,
 * not on every crawl: each lookup is a request against the rate limit every reviewer shares.
 */

const DAY = 86_400_000;

/** Waiting candidates as the older notes list them (no dates); their records: no date, an epoch-zero one, one in 2999, a real one. */
function service() {
  const records: Record<string, Record<string, unknown>> = {
    'rec-none': { status: 'waiting', recordId: 'rec-none', refId: 'ref-none' },
    'rec-zero': { status: 'waiting', recordId: 'rec-zero', refId: 'ref-zero', waitingDate: '1970-01-01T00:00:00.000Z' },
    'rec-2999': { status: 'waiting', recordId: 'rec-2999', refId: 'ref-2999', waitingDate: '2999-01-01T00:00:00.000Z' },
    'rec-real': { status: 'waiting', recordId: 'rec-real', refId: 'ref-real', waitingDate: '2026-11-20T10:00:00.000Z' },
  };
  const listed = Object.values(records).map((r) => ({ status: r.status, _id: r.recordId, refId: r.refId }));
  return { records, listed };
}

const lookupsOf = (seen: ReadonlyArray<{ path: string }>) =>
  seen.filter((r) => r.path.includes('/recordId/')).map((r) => decodeURIComponent(r.path.split('/').pop()!));

describe('the crawler and rows whose record holds no date to trust', () => {
  it('looks each up once across two crawls, again after a day, and again when the list shows a new status', async () => {
    const { records, listed } = service();
    const upstream = await startListUpstream(listed, (kind, id) => (kind === 'recordId' ? records[id] : undefined));
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
    });
    await app.crawl();
    expect(lookupsOf(upstream.seen).sort()).toEqual(['rec-2999', 'rec-none', 'rec-real', 'rec-zero']);
    await app.crawl();
    // The second crawl asks the list again, and no record.
    expect(lookupsOf(upstream.seen)).toHaveLength(4);
    expect(pageOf(await app.get('/api/applicants?status=waiting', SUPPORT)).records.find((r) => r.recordId === 'rec-none')?.dateless).toBe(
      true,
    );
    // A day on, the three without a date to trust are asked again (a date may have come); the dated one is not.
    await withClockAhead(DAY + 60_000, () => app.crawl());
    expect(lookupsOf(upstream.seen).slice(4).sort()).toEqual(['rec-2999', 'rec-none', 'rec-zero']);
    // A new status in the list: its date belongs to the new time in it, looked up once.
    records['rec-none'] = { ...records['rec-none'], status: 'inreview' };
    upstream.state.records = upstream.state.records.map((r) =>
      (r as { _id: string })._id === 'rec-none' ? { ...(r as object), status: 'inreview' } : r,
    );
    await withClockAhead(DAY + 120_000, () => app.crawl());
    expect(lookupsOf(upstream.seen).slice(7)).toEqual(['rec-none']);
    await app.close();
    await upstream.close();
  });

  it('a row the list itself dates with a placeholder is never looked up: a lookup would read the same date', async () => {
    const record = { status: 'waiting', recordId: 'rec-zero', refId: 'ref-zero', waitingDate: '1970-01-01T00:00:00.000Z' };
    const upstream = await startListUpstream([{ status: 'waiting', refId: 'ref-zero', waitingDate: record.waitingDate }], (kind, id) =>
      kind === 'refId' && id === 'ref-zero' ? record : undefined,
    );
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
    });
    await app.crawl();
    await app.crawl();
    await app.crawl();
    expect(upstream.seen.filter((r) => r.path.includes('/refId/'))).toEqual([]);
    await app.close();
    await upstream.close();
  });
});
