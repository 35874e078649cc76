import type http from 'node:http';
import { startFakeUpstream } from './fake-upstream.ts';

/**
 * A fake service whose list operation answers the given records exactly as they are (whatever their
 * shape: the list-record tests give it the published shapes, and broken ones), by status, `skip` and
 * `limit` (at most 100). `records` may be changed between requests. A lookup (`refId/<id>` or
 * `recordId/<id>`) is answered by `lookup`, or 404.
 */
export async function startListUpstream(records: unknown[], lookup?: (kind: string, id: string) => unknown) {
  const upstream = await startFakeUpstream();
  const state = { records };
  upstream.behave = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, , , , , kind, id] = url.pathname.split('/');
    if (kind === 'applicants') {
      const matching = id ? state.records.filter((record) => (record as { status?: unknown }).status === id) : state.records;
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 100);
      return send(res, 200, {
        status: 'success',
        data: { records: matching.slice(skip, skip + limit), total: matching.length, skip, limit },
      });
    }
    const found = kind && id ? lookup?.(kind, decodeURIComponent(id)) : undefined;
    if (found) return send(res, 200, { status: 'success', data: found });
    send(res, 404, { status: 'error', code: 404, message: 'Resource not Found' });
  };
  return { ...upstream, state };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
