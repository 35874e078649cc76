// @ts-check
// The event streams' load-test harness (issue 22), bundled from the sources by loadtest-events.mjs and run
// as a process of its own: the API handler as the server builds it (identity-aware proxy sign-in, so that
// each stream is a user of its own), with the live hub in this process (or in Redis when REDIS_URL is
// set). The webhook receiver is not part of it: `POST /loadtest/publish?rate=&seconds=` publishes through
// the hub directly, as the receiver does after accepting a delivery. Never part of the built server.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { createAuditLog } from '../src/server/audit/audit.ts';
import { createAccessControl } from '../src/server/auth/access.ts';
import { createLiveHub } from '../src/server/live/create-live-hub.ts';
import { createApiHandler } from '../src/server/composition/api-handler.ts';
import { parseConfig } from '../src/server/config/config.ts';
import { settingsOf } from '../src/server/config/settings.ts';

const hub = createLiveHub({ redisUrl: process.env.REDIS_URL || undefined });
// Built as the server builds them from a configuration: these limits (no crawler: nothing is ever listed
// here), the schema's defaults for the rest, and the identity-aware proxy's sign-in.
const config = parseConfig(
  {},
  {
    signIn: { mode: 'proxy', userHeader: 'x-forwarded-user', roleHeader: 'x-forwarded-role', trustedProxies: ['127.0.0.1/32'] },
    limits: { upstreamTimeoutMs: 2000, maxResponseBytes: 1024 * 1024, queueIndexLookupsPerSecond: 0 },
  },
);
const api = createApiHandler(settingsOf(config), {
  environments: [
    {
      info: { name: 'default', label: 'default', clientId: 'loadtest', upstream: 'remote' },
      // Never asked: the streams do not look anything up.
      target: { baseUrl: 'http://127.0.0.1:9', clientId: 'loadtest', apiKey: 'loadtest-key' },
    },
  ],
  audit: createAuditLog(path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-loadtest-events-')), 'audit.jsonl')),
  access: createAccessControl(config.auth),
  hub,
});

/**
 * `rate` events a second for `seconds`, on schedule (each late tick catches up), each stamped with the
 * time it was published (`at`): the streams' clients measure fan-out from it.
 * @param {number} rate @param {number} seconds
 */
function publishFor(rate, seconds) {
  const total = rate * seconds;
  const start = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      while (sent < due) {
        const n = sent++;
        const event = {
          environment: 'default',
          event: 'review.approved',
          refId: `load-${n}`,
          recordId: null,
          status: 'approved',
          isArchived: false,
        };
        void hub.publish({ ...event, at: new Date().toISOString() });
      }
      if (sent >= total) resolve(total);
      else setTimeout(tick, 5);
    };
    tick();
  });
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'POST' && url.pathname === '/loadtest/publish') {
    void publishFor(Number(url.searchParams.get('rate')), Number(url.searchParams.get('seconds'))).then((total) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ published: total }));
    });
    return;
  }
  api(req, res);
});
await hub.ready?.();
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`Live events harness running at http://127.0.0.1:${address.port}/`);
});
process.on('SIGTERM', () => process.exit(0));
