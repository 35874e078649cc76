import { afterEach, describe, expect, it } from 'vitest';
import type { Environment } from '../../src/server/config/config.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { errorOf } from './service-app.ts';
import { startInstance } from './instance.ts';

/**
 * An answer that is no record (perhaps encrypted, a web page, a text where the record should be) tells an
 * administrator which settings to check: the environment's own, by the names they were given under. Its
 * advice named KYC_BASE_URL for every environment, also in CONFIG_FILE mode, where no such variable is
 * set and the base URL is `environments[N].baseUrl`. No key's value is ever said.
 */

const KEY = 'full-SECRET-0123456789';
const STATUS_KEY = 'status-SECRET-9876543210';
/** What an encrypted answer looks like: a JWE compact serialisation, not JSON. */
const ENCRYPTED =
  'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKoTCVJRgckCL9kiMT03JGe.48V1_ALb6US04U3b';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A service that answers every lookup 200 with `body`. */
async function answering(body: string) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
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

describe('an answer that is no record names the settings of the environment asked', () => {
  it('CONFIG_FILE mode: an encrypted answer names environments[1].baseUrl and the key in use, never KYC_BASE_URL, at every level', async () => {
    const upstream = await answering(ENCRYPTED);
    const environment = (name: string, at: number) => ({
      name,
      label: name,
      baseUrl: upstream.url,
      clientId: 'acme',
      apiKeyEnv: `KEY_${at}`,
      statusApiKeyEnv: `STATUS_KEY_${at}`,
    });
    const at = await instance(
      { KEY_0: KEY, STATUS_KEY_0: STATUS_KEY, KEY_1: KEY, STATUS_KEY_1: STATUS_KEY },
      { environments: [environment('production', 0), environment('staging', 1)] },
    );
    for (const [path, key] of [
      ['/api/e/staging/candidates/refId/abc', 'environments[1].apiKeyEnv (the variable KEY_1)'],
      ['/api/e/staging/status/refId/abc', 'environments[1].statusApiKeyEnv (the variable STATUS_KEY_1)'],
    ] as const) {
      const res = await at.request(path);
      expect(res.status).toBe(502);
      const { code, message } = errorOf(res);
      expect(code).toBe('not_a_record');
      expect(message).toMatch(/^The KYC service's answer is not a readable candidate record\. It may be encrypted/);
      expect(message).toContain(`an administrator must check environments[1].baseUrl and the API key in ${key}.`);
      expect(message).not.toContain('KYC_BASE_URL');
      expect(res.body + at.logs.join('\n')).not.toMatch(/SECRET/);
    }
  });

  it('CONFIG_FILE mode: a web page or a text where the record should be names the environment’s baseUrl too', async () => {
    for (const [body, advice] of [
      ['<html><body>Maintenance</body></html>', 'If it lasts, an administrator must check environments[0].baseUrl.'],
      [
        JSON.stringify({ status: 'success', data: ENCRYPTED }),
        'An administrator must check the settings of the API key in environments[0].apiKeyEnv (the variable PROD_KEY) and environments[0].baseUrl.',
      ],
    ]) {
      const upstream = await answering(body!);
      const at = await instance(
        { PROD_KEY: KEY },
        { environments: [{ name: 'production', label: 'Production', baseUrl: upstream.url, clientId: 'acme', apiKeyEnv: 'PROD_KEY' }] },
      );
      const { code, message } = errorOf(await at.request('/api/candidates/refId/abc'));
      expect(code).toBe('not_a_record');
      expect(message).toContain(advice);
      expect(message).not.toContain('KYC_BASE_URL');
    }
  });

  it('quick start: an encrypted answer names KYC_BASE_URL and KYC_API_KEY, the variables that configure it', async () => {
    const upstream = await answering(ENCRYPTED);
    const at = await instance({ KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: KEY });
    const { code, message } = errorOf(await at.request('/api/candidates/refId/abc'));
    expect(code).toBe('not_a_record');
    expect(message).toContain('an administrator must check KYC_BASE_URL and the API key in KYC_API_KEY.');
    expect(message).not.toContain('CONFIG_FILE');
  });
});
