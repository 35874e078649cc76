import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Connect, Logger as ViteLogger, ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { signatureOf } from '../../src/server/live/webhook-signature.ts';
import { candidateLookupApi } from '../../src/server/vite-plugin.ts';
import { listen, rawRequest } from './http.ts';
import { deliver, deliveryBody } from './webhook-fixture.ts';

const savedEnv = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

describe('the Vite plugin', () => {
  it('mounts the webhook receiver beside /api, as the production server does', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-vite-webhook-'));
    for (const name of ['CONFIG_FILE', 'KYC_BASE_URL', 'KYC_CLIENT_ID', 'KYC_API_KEY', 'KYC_ENVIRONMENTS_FILE']) delete process.env[name];
    Object.assign(process.env, { AUDIT_LOG: path.join(dir, 'audit.jsonl'), KYC_WEBHOOK_SECRET: 'vite-secret' });
    let middleware: Connect.NextHandleFunction | undefined;
    const server = http.createServer((req, res) =>
      middleware!(req, res, () => {
        res.statusCode = 404;
        res.end();
      }),
    );
    const quiet = { info: () => {}, warn: () => {}, error: () => {} } as unknown as ViteLogger;
    const plugin = candidateLookupApi();
    const vite = {
      middlewares: { use: (handler: Connect.NextHandleFunction) => (middleware = handler) },
      httpServer: server,
      config: { logger: quiet },
    };
    (plugin.configureServer as (server: ViteDevServer) => void)(vite as unknown as ViteDevServer);
    const app = await listen(server);
    try {
      const meta = apiMetaSchema.parse(JSON.parse((await rawRequest(app.port, '/api/meta')).body));
      const body = deliveryBody({ clientId: meta.environment.clientId });
      const res = await deliver(app.port, body, { signature: `sha256=${signatureOf(body, 'vite-secret')}` });
      expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'accepted' });
    } finally {
      await app.close();
    }
  });
});
