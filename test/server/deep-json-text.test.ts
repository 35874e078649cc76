import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryQueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { COMPLIANCE, gateway } from './queue-fixture.ts';

/**
 * A record whose `certs` came as text holding JSON nested 10,000 levels deep (20 KB): the queue's triage of
 * a compliance user's lookup read the text (V8's parser does not recurse) and wrote a certificate of it out
 * again (JSON.stringify does), which ran the stack out inside the answer's scan: nothing caught it, and the
 * process exited, for every user, at each lookup of that candidate. Found by a red-team review.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('JSON text nested past the bound in a record', () => {
  it('attack: certs sent as text holding JSON nested 10,000 levels deep leaves the server up, the record answered', async () => {
    const upstream = await startFakeUpstream();
    const certs = `{"onfido-service-cert":"{\\"result\\":\\"clear\\"}","a":${deep(10_000)}}`;
    upstream.behave = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      const body = JSON.stringify({ status: 'success', data: { status: 'inreview', refId: 'deep-1', recordId: 'r-deep-1', certs } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key-0123456789' },
      access: gateway(),
      queueIndex: createMemoryQueueIndexStore(),
    });
    cleanups.push(app.close, upstream.close);
    for (const accept of ['application/json', 'multipart/mixed, application/json;q=0.9']) {
      const answer = await app.get('/api/candidates/refId/deep-1', { ...COMPLIANCE, accept });
      expect(answer.status, answer.body.slice(0, 200)).toBe(200);
      expect(answer.body).toContain('"refId":"deep-1"');
    }
    expect((await app.get('/healthz')).status).toBe(200);
  });
});
