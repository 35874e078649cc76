import type http from 'node:http';
import type { QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { type Behaviour, startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { gateway } from './queue-fixture.ts';

/**
 * A fake service whose list operation answers the given records exactly as they are (whatever their
 * shape: the list-record tests give it the published shapes, and broken ones), by status, `skip` and
 * `limit` (at most `pageSize`, 100 unless told). `records`, `pageSize` and `lookup` may be changed between
 * requests. A lookup (`refId/<id>` or `recordId/<id>`) is answered by `lookup`, or 404. `behaveList` is
 * this behaviour, for a test that wraps it.
 */
export async function startListUpstream(records: unknown[], lookup?: (kind: string, id: string) => unknown) {
  const upstream = await startFakeUpstream();
  const state = { records, pageSize: 100, lookup };
  const behaveList: Behaviour = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, , , , , kind, id] = url.pathname.split('/');
    if (kind === 'applicants') {
      const matching = id ? state.records.filter((record) => (record as { status?: unknown }).status === id) : state.records;
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), state.pageSize);
      return send(res, 200, {
        status: 'success',
        data: { records: matching.slice(skip, skip + limit), total: matching.length, skip, limit },
      });
    }
    const found = kind && id ? state.lookup?.(kind, decodeURIComponent(id)) : undefined;
    if (found) return send(res, 200, { status: 'success', data: found });
    send(res, 404, { status: 'error', code: 404, message: 'Resource not Found' });
  };
  upstream.behave = behaveList;
  return {
    url: upstream.url,
    seen: upstream.seen,
    close: upstream.close,
    set behave(next: Behaviour) {
      upstream.behave = next;
    },
    behaveList,
    state,
    set pageSize(size: number) {
      state.pageSize = size;
    },
    set lookup(next: (kind: string, id: string) => unknown) {
      state.lookup = next;
    },
  };
}

/**
 * The app, behind the gateway, on a fake service listing `records` (both keys: the list read at status
 * level), its queue index `store`, read once by the crawler. `closing` takes what closes all three.
 */
export async function crawledListApp(records: unknown[], store: QueueIndexStore, closing: Array<() => Promise<void>>) {
  const upstream = await startListUpstream(records);
  const app = await startTestApp({
    environments: [testEnvironment({ baseUrl: upstream.url, clientId: 'client', apiKey: 'full-key', statusApiKey: 'status-key' })],
    access: gateway(),
    queueIndex: store,
  });
  closing.push(async () => {
    await app.close();
    await upstream.close();
    await store.close();
  });
  await app.crawl();
  return app;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
