import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';

/** Issue 9's attacks on the edge of the server (requests, headers, cookies, start-up), one test each. */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-edge-'));

describe('the back/forward cache or a shared cache bringing a candidate page back after sign-out', () => {
  it('serves the page with Cache-Control: no-store, at / and at every deep link', async () => {
    const staticDir = path.join(dir, 'client');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Candidate Lookup</title>');
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' } }, staticDir);
    cleanups.push(app.close, upstream.close);
    for (const route of ['/', '/index.html', '/candidates/refId/cust_000482']) {
      const res = await app.get(route);
      expect(res.status, route).toBe(200);
      expect(res.body, route).toContain('<title>Candidate Lookup</title>');
      expect(res.headers['cache-control'], route).toBe('no-store');
    }
  });
});

describe('credentials embedded in KYC_BASE_URL', () => {
  it('are refused at start with a message that does not print them', () => {
    for (const url of ['https://ops:hunter2-secret@kyc.example.org', 'https://hunter2-secret@kyc.example.org/']) {
      let message = '';
      try {
        parseConfig({ KYC_BASE_URL: url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toContain('KYC_BASE_URL must not contain a user name or password');
      expect(message).not.toContain('hunter2');
    }
  });
});
