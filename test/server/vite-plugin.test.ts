import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Connect, Logger as ViteLogger, ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema, apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import { candidateLookupApi, throughVite } from '../../src/server/composition/vite-plugin.ts';
import { listen, rawRequest } from './http.ts';
import { deliver, deliveryBody } from './webhook-fixture.ts';

/** The Vite plugin (`npm run dev`, `vite preview`) mounted on a plain HTTP server, its output captured. */
function captureLogger() {
  const lines: Array<[string, string]> = [];
  const logger = {
    info: (text: string) => lines.push(['info', text]),
    warn: (text: string) => lines.push(['warn', text]),
    error: (text: string) => lines.push(['error', text]),
  } as unknown as ViteLogger;
  return { lines, logger };
}

const savedEnv = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

describe('the Vite plugin answers upstream_unreachable when the API failed to start', () => {
  it('answers that the API did not start (503 api_not_started), and logs why', async () => {
    // A sandbox data file that is not candidate records: the API cannot start.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-vite-plugin-'));
    writeFileSync(path.join(dir, 'data.json'), '[{"status": 1}]');
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ sandbox: { data: path.join(dir, 'data.json') } }));
    Object.assign(process.env, { CONFIG_FILE: path.join(dir, 'config.json'), AUDIT_LOG: path.join(dir, 'audit.jsonl') });
    for (const name of ['KYC_BASE_URL', 'KYC_CLIENT_ID', 'KYC_API_KEY', 'KYC_ENVIRONMENTS_FILE']) delete process.env[name];

    let middleware: Connect.NextHandleFunction | undefined;
    const { lines, logger } = captureLogger();
    const server = {
      middlewares: { use: (handler: Connect.NextHandleFunction) => (middleware = handler) },
      httpServer: null,
      config: { logger },
    };
    const plugin = candidateLookupApi();
    (plugin.configureServer as (server: ViteDevServer) => void)(server as unknown as ViteDevServer);

    const app = await listen(
      http.createServer((req, res) =>
        middleware!(req, res, () => {
          res.statusCode = 404;
          res.end();
        }),
      ),
    );
    try {
      const res = await rawRequest(app.port, '/api/meta');
      expect(res.status).toBe(503);
      const { error } = apiErrorBodySchema.parse(JSON.parse(res.body));
      expect(error.code).toBe('api_not_started');
      expect(error.message).toMatch(/^The Candidate Lookup API did not start/);
      expect(lines).toContainEqual([
        'error',
        expect.stringMatching(/^Candidate Lookup API could not start: .*is not a list of candidate records/),
      ]);
    } finally {
      await app.close();
    }
  });

  it("writes the server's one log to Vite's output, each line at its level", () => {
    const { lines, logger } = captureLogger();
    const log = throughVite(logger, { logLevel: 'info' });
    log.info('started');
    log.warn('a warning for the operator');
    log.debug('not at info level');
    log.child({ reqId: 'r-1', route: '/api/meta' }).error({ error: { type: 'TypeError', stack: ['at f (x.ts:1:2)'] } }, 'unexpected error');
    log
      .child({ reqId: 'r-2', route: '/api/candidates/refId/:id', user: 'ana' })
      .info({ method: 'GET', status: 200, ms: 12, bytes: 345 }, 'request');
    expect(lines).toEqual([
      ['info', 'started'],
      ['warn', 'a warning for the operator'],
      ['error', 'unexpected error /api/meta r-1 TypeError\n    at f (x.ts:1:2)'],
      ['info', 'GET /api/candidates/refId/:id 200 12ms 345B r-2'],
    ]);
  });
});

describe('the Vite plugin and webhooks', () => {
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
