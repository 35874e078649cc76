import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';

/**
 * A list whose `total` lies. Read as told, a total of 10^12 had the crawler build a page for every 100
 * of them at once: the process died of it within three seconds of starting (its crawler starts by
 * itself, so again at every start), and 10^8 held 1.3 GB and the event loop for seconds.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const record = (i: number) => ({ status: 'waiting', refId: `r-${i}`, recordId: `rec${i}`, waitingDate: '2026-01-01T00:00:00.000Z' });

type Envelope = (records: unknown[]) => unknown;
const LYING: Envelope = (records) => ({ status: 'success', data: { records, total: 1e12 } });

async function listing(page: (skip: number) => unknown[], envelope = LYING) {
  const upstream = await startFakeUpstream();
  const asked: number[] = [];
  upstream.behave = (req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (!url.pathname.includes('/applicants/waiting')) {
      const empty = JSON.stringify({ status: 'success', data: { records: [], total: 0 } });
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(empty);
    }
    const skip = Number(url.searchParams.get('skip') ?? 0);
    asked.push(skip);
    const body = JSON.stringify(envelope(page(skip)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k-12345678', statusApiKey: 's-12345678' } });
  cleanups.push(app.close, upstream.close);
  return { app, asked };
}

const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };

describe('attack: a list whose total lies (10^12)', () => {
  it('and that ignores skip: the tab stops at the first page repeated, says why, and the server goes on', async () => {
    const { app, asked } = await listing(() => Array.from({ length: 100 }, (_, i) => record(i)));
    await app.crawl();
    // A window of pages at most, not 10^10 of them.
    expect(asked.length).toBeLessThanOrEqual(1 + 32 * 3);
    const queue = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    expect(queue.body).toContain('answered another page with the candidates of its first');
    expect((await app.get('/healthz', {})).status).toBe(200);
  });

  it('and whose pages end where its records do: the list is read to its last page and no further', async () => {
    const { app, asked } = await listing((skip) =>
      skip < 250 ? Array.from({ length: Math.min(100, 250 - skip) }, (_, i) => record(skip + i)) : [],
    );
    await app.crawl();
    expect(Math.max(...asked)).toBeLessThan(100 * 33);
    const queue = JSON.parse((await app.get('/api/applicants?status=waiting&limit=50', COMPLIANCE)).body);
    expect(queue.data.total).toBe(250);
  });

  it("and a last page that holds only a candidate the first page had (one joined at the list's head meanwhile) ends the read, not as ignored paging", async () => {
    // Newest first: between the two reads a candidate joined, moving the first page's last one onto the second.
    const { app, asked } = await listing((skip) =>
      skip === 0 ? Array.from({ length: 100 }, (_, i) => record(i)) : skip === 100 ? [record(99)] : [],
    );
    await app.crawl();
    expect(asked).toContain(100);
    const queue = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    expect(queue.body).not.toContain('answered another page with the candidates of its first');
  });
});

describe('a list that gives no total, or no envelope status (read liberally, as a candidate envelope is)', () => {
  const upTo250 = (skip: number) => (skip < 250 ? Array.from({ length: Math.min(100, 250 - skip) }, (_, i) => record(skip + i)) : []);

  it.each([
    ['no total', (records: unknown[]) => ({ status: 'success', data: { records } })],
    ['no status', (records: unknown[]) => ({ data: { records, total: 250 } })],
    ['neither', (records: unknown[]) => ({ data: { records } })],
  ])('%s: the tab is read to its end, every candidate listed, and the count is what was read', async (_name, envelope) => {
    const { app, asked } = await listing(upTo250, envelope);
    await app.crawl();
    const queue = JSON.parse((await app.get('/api/applicants?status=waiting&limit=50', COMPLIANCE)).body);
    expect(queue.status).toBe('success');
    expect(queue.data.total).toBe(250);
    // Without a total, pages are asked a few at a time past the end, not a window of 32.
    expect(Math.max(...asked)).toBeLessThanOrEqual(300);
  });

  it.each([
    ['its last page (250 candidates, a short last page)', 250],
    ['its last page (300 candidates, every page full)', 300],
  ])('attack: no total, and a service that answers %s for any skip past it: read to its end, not for ever', async (_name, size) => {
    const { app, asked } = await listing(
      (skip) => {
        // Any skip past the last page's start is read as that start.
        const from = Math.min(skip, Math.floor((size - 1) / 100) * 100);
        return Array.from({ length: Math.min(100, size - from) }, (_, i) => record(from + i));
      },
      (records) => ({ status: 'success', data: { records } }),
    );
    await app.crawl();
    // Before: 3 917 pages asked in 8 s, and on toward 10 000 000.
    expect(asked.length).toBeLessThanOrEqual(6);
    const queue = JSON.parse((await app.get('/api/applicants?status=waiting&limit=50', COMPLIANCE)).body);
    expect(queue.data.total).toBe(size);
  });

  it("an envelope that says error is still refused, as the status it states, without the service's reason (the index keeps none of its words)", async () => {
    const { app } = await listing(upTo250, () => ({ status: 'error', message: 'Not allowed', code: 403 }));
    await app.crawl();
    const queue = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    // A stated 403 is read as a 403 on the status line (crawler-stated-errors.test.ts): the key is named.
    expect(queue.body).toContain("The KYC service rejected this server's status-level API key (HTTP 403).");
    expect(queue.body).not.toContain('Not allowed');
  });

  it("an envelope that says error with no code is refused as the list's refusal, without the service's reason", async () => {
    const { app } = await listing(upTo250, () => ({ status: 'error', message: 'Not allowed' }));
    await app.crawl();
    const queue = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    expect(queue.body).toContain('The KYC service refused the applicants list.');
    expect(queue.body).not.toContain('Not allowed');
  });
});

describe('attack: a list that ignores limit (5 000 a page where 100 were asked)', () => {
  it('is read in steps of what it serves: each candidate once, not fifty times', async () => {
    const { app, asked } = await listing(
      (skip) => (skip < 2000 ? Array.from({ length: Math.min(500, 2000 - skip) }, (_, i) => record(skip + i)) : []),
      (records) => ({ status: 'success', data: { records, total: 2000 } }),
    );
    await app.crawl();
    // Before: asked at 0, 100, 200… 1900, each page learning its 500 (4 times over the list).
    // 2000 too: a full page that ends at the total has the next one read (a total may be low), which is empty.
    expect([...new Set(asked)].sort((a, b) => a - b)).toEqual([0, 500, 1000, 1500, 2000]);
    const queue = JSON.parse((await app.get('/api/applicants?status=waiting&limit=50', COMPLIANCE)).body);
    expect(queue.data.total).toBe(2000);
  });
});

describe('a list page nested deeper than any record is', () => {
  it('is refused saying so, not as "not JSON"', async () => {
    const deep = `${'['.repeat(1001)}${']'.repeat(1001)}`;
    const { app } = await listing(
      () => [record(0)],
      (records) => JSON.parse(`{"status":"success","data":{"records":${JSON.stringify(records).slice(0, -1)},${deep}],"total":1}}`),
    );
    await app.crawl();
    const queue = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    expect(queue.body).toContain('nested deeper than 1000 levels');
    expect(queue.body).not.toContain('is not JSON');
  });
});
