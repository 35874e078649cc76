import { mkdtempSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Environment } from '../../src/server/config/config.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { errorOf } from './service-app.ts';
import { startInstance } from './instance.ts';
import { startTestApp } from './http.ts';
import { getBytes } from './parts.ts';

/**
 * A key the service rejects (401, 403) is named: which one (status-level or full), the environment, and
 * the setting an administrator finds it by, in CONFIG_FILE mode as in the quick start. Before, every
 * rejection said "check KYC_API_KEY and KYC_CLIENT_ID", also when the full key worked and the status
 * key was wrong, and in CONFIG_FILE mode, where neither variable is set; a 401 stated in a 200's error
 * envelope said so until it was named as the HTTP 401 is. No key's value is ever said.
 */

const FULL = 'full-SECRET-0123456789';
const STATUS = 'status-SECRET-9876543210';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A service that refuses the status-level key and answers the full one. */
async function refusingStatusKey() {
  const upstream = await startFakeUpstream();
  upstream.behave = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refused = req.headers.authorization === STATUS;
    const refId = decodeURIComponent(req.url!.split('/').pop()!);
    const body = refused
      ? JSON.stringify({ status: 'error', code: 401, message: 'Unauthorized' })
      : JSON.stringify({ status: 'success', data: { status: 'approved', refId, isArchived: false, blockPassID: 'b' } });
    res.writeHead(refused ? 401 : 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  cleanups.push(upstream.close);
  return upstream;
}

async function instance(env: Environment, file: ConfigFile = {}) {
  const started = await startInstance(env, { file: { ...file, limits: { lookupsPerMinute: 0 } } });
  cleanups.push(started.close);
  return started;
}

describe('a key the service rejects', () => {
  it('CONFIG_FILE mode: a rejected status key names environments[0].statusApiKeyEnv, its variable and the environment, while the full key works', async () => {
    const upstream = await refusingStatusKey();
    const production = {
      name: 'production',
      label: 'Production',
      baseUrl: upstream.url,
      clientId: 'acme',
      apiKeyEnv: 'PROD_KEY',
      statusApiKeyEnv: 'PROD_STATUS_KEY',
    };
    const at = await instance({ PROD_KEY: FULL, PROD_STATUS_KEY: STATUS }, { environments: [production] });
    const refused = await at.request('/api/status/refId/abc');
    expect(refused.status).toBe(502);
    const { code, message } = errorOf(refused);
    expect(code).toBe('upstream_unauthorized');
    expect(message).toContain(`rejected this server's status-level API key of the environment "production" (HTTP 401)`);
    expect(message).toContain('must check environments[0].statusApiKeyEnv (the variable PROD_STATUS_KEY) and environments[0].clientId.');
    expect(message).not.toContain('KYC_API_KEY');
    expect((await at.request('/api/candidates/refId/abc')).status).toBe(200);
    expect(refused.body + at.logs.join('\n')).not.toMatch(/SECRET/);
  });

  it('CONFIG_FILE mode: a key from a file is named by its setting, never its path', async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = (_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end('{"status":"error","code":403,"message":"Forbidden"}');
    };
    cleanups.push(upstream.close);
    const keyFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-key-')), 'full-key');
    writeFileSync(keyFile, FULL);
    const at = await instance(
      {},
      { environments: [{ name: 'staging', label: 'Staging', baseUrl: upstream.url, clientId: 'acme', apiKeyFile: keyFile }] },
    );
    const { message } = errorOf(await at.request('/api/candidates/refId/abc'));
    expect(message).toContain(`rejected this server's full API key of the environment "staging" (HTTP 403)`);
    expect(message).toContain('must check environments[0].apiKeyFile and environments[0].clientId.');
    expect(message).not.toContain(keyFile);
  });

  it('quick start: a rejected status key names KYC_API_KEY_STATUS, not KYC_API_KEY', async () => {
    const upstream = await refusingStatusKey();
    const at = await instance({ KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: FULL, KYC_API_KEY_STATUS: STATUS });
    const { message } = errorOf(await at.request('/api/status/refId/abc'));
    expect(message).toContain(`rejected this server's status-level API key of the environment "default" (HTTP 401)`);
    expect(message).toContain('must check KYC_API_KEY_STATUS and KYC_CLIENT_ID.');
    expect((await at.request('/api/candidates/refId/abc')).status).toBe(200);
  });

  it("a 401 stated in a 200's error envelope names the key and setting used, word for word as the same HTTP 401 does", async () => {
    // `http-…` is refused on the status line; any other id by a 200 whose envelope states the 401.
    const upstream = await startFakeUpstream();
    upstream.behave = (req, res) => {
      const body = JSON.stringify({ status: 'error', code: 401, message: 'Unauthorized' });
      res.writeHead(req.url!.includes('/http-') ? 401 : 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    };
    cleanups.push(upstream.close);
    const keySettings = {
      environment: 'production',
      full: 'environments[0].apiKeyEnv (the variable PROD_KEY)',
      status: 'environments[0].statusApiKeyEnv (the variable PROD_STATUS_KEY)',
      clientId: 'environments[0].clientId',
      baseUrl: 'environments[0].baseUrl',
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'acme', apiKey: FULL, statusApiKey: STATUS, keySettings },
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
      settings: { keyArchivesOnExtract: 'accept' },
    });
    cleanups.push(app.close);
    const asked = {
      full: { 'x-user': 'ana', 'x-role': 'compliance', accept: 'application/json' },
      parts: { 'x-user': 'ana', 'x-role': 'compliance' },
      status: { 'x-user': 'sam', 'x-role': 'support' },
    };
    for (const [form, headers] of Object.entries(asked)) {
      const messageOf = async (id: string) => {
        const res = await getBytes(app.port, `/api/candidates/refId/${id}`, headers);
        expect(res.status, form).toBe(502);
        const { code, message } = JSON.parse(res.body.toString()).error;
        expect(code, form).toBe('upstream_unauthorized');
        return message as string;
      };
      const stated = await messageOf('abc');
      // Before: "…rejected this server's API key (HTTP 401)…must check KYC_API_KEY and KYC_CLIENT_ID", whatever key was sent.
      expect(stated, form).toBe(await messageOf('http-abc'));
      const which = form === 'status' ? 'status-level API key' : 'full API key';
      expect(stated).toContain(`rejected this server's ${which} of the environment "production" (HTTP 401)`);
      expect(stated).toContain(`must check ${form === 'status' ? keySettings.status : keySettings.full} and environments[0].clientId.`);
      expect(stated).not.toContain('KYC_API_KEY');
    }
  });
});
