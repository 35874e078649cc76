import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config/config.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-environments-'));
let n = 0;
function fileWith(content: unknown): string {
  const file = path.join(dir, `environments-${++n}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const PRODUCTION = {
  name: 'prod',
  label: 'Production',
  baseUrl: 'https://kyc.example.org/',
  clientId: 'acme_kyc',
  apiKeyEnv: 'PROD_KEY',
  statusApiKeyEnv: 'PROD_STATUS_KEY',
  dashboardUrl: 'https://console.example.org/kyc/{recordId}',
};
const STAGING = {
  name: 'staging',
  label: 'Staging',
  baseUrl: 'https://staging.example.org',
  clientId: 'acme_test',
  apiKeyEnv: 'STAGING_KEY',
};
const KEYS = { PROD_KEY: 'prod-full-SECRET-1', PROD_STATUS_KEY: 'prod-status-SECRET-2', STAGING_KEY: 'staging-SECRET-3' };

function errorOf(env: Record<string, string>, file?: unknown): string {
  try {
    parseConfig(env, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const secret of ['SECRET']) expect(message).not.toContain(secret);
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe("CONFIG_FILE's environments", () => {
  it('reads every environment in order, the first being the default', () => {
    const config = parseConfig({ ...KEYS, CONFIG_FILE: fileWith({ environments: [PRODUCTION, STAGING] }) });
    expect(config.environments).toEqual([
      {
        name: 'prod',
        label: 'Production',
        upstream: {
          kind: 'remote',
          baseUrl: 'https://kyc.example.org',
          clientId: 'acme_kyc',
          apiKey: 'prod-full-SECRET-1',
          statusApiKey: 'prod-status-SECRET-2',
          keySettings: {
            environment: 'prod',
            full: 'environments[0].apiKeyEnv (the variable PROD_KEY)',
            status: 'environments[0].statusApiKeyEnv (the variable PROD_STATUS_KEY)',
            clientId: 'environments[0].clientId',
            baseUrl: 'environments[0].baseUrl',
          },
        },
        dashboardUrl: 'https://console.example.org/kyc/{recordId}',
      },
      {
        name: 'staging',
        label: 'Staging',
        upstream: {
          kind: 'remote',
          baseUrl: 'https://staging.example.org',
          clientId: 'acme_test',
          apiKey: 'staging-SECRET-3',
          keySettings: {
            environment: 'staging',
            full: 'environments[1].apiKeyEnv (the variable STAGING_KEY)',
            clientId: 'environments[1].clientId',
            baseUrl: 'environments[1].baseUrl',
          },
        },
      },
    ]);
  });

  it('makes the KYC_* variables a list of one, labelled by the host unless told otherwise', () => {
    const remote = { KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'acme', KYC_API_KEY: 'k' };
    expect(parseConfig(remote).environments).toEqual([
      {
        name: 'default',
        label: 'kyc.example.org',
        upstream: {
          kind: 'remote',
          baseUrl: 'https://kyc.example.org',
          clientId: 'acme',
          apiKey: 'k',
          keySettings: { environment: 'default', full: 'KYC_API_KEY', clientId: 'KYC_CLIENT_ID', baseUrl: 'KYC_BASE_URL' },
        },
      },
    ]);
    // A label and a dashboard: the service described in CONFIG_FILE instead.
    const entry = { name: 'default', label: 'Production', baseUrl: 'https://kyc.example.org', clientId: 'acme', apiKeyEnv: 'KEY' };
    const labelled = parseConfig({ KEY: 'k' }, { environments: [{ ...entry, dashboardUrl: 'https://c.example.org/{refId}' }] });
    expect(labelled.environments[0]).toMatchObject({ label: 'Production', dashboardUrl: 'https://c.example.org/{refId}' });
    expect(errorOf({ KEY: 'k' }, { environments: [{ ...entry, dashboardUrl: 'https://c.example.org/x' }] })).toMatch(
      /CONFIG_FILE: environments\[0\]\.dashboardUrl: must contain \{recordId\} or \{refId\}/,
    );
  });

  it.each([
    ['not a list', { name: 'prod' }, /environments: must be an array of environments/],
    ['a missing name', [{ ...PRODUCTION, name: undefined }], /environments\[0\]\.name: is missing/],
    ['a name unfit for a URL', [{ ...PRODUCTION, name: 'Prod EU' }], /environments\[0\]\.name: must be 1 to 32 lower-case letters/],
    ['a repeated name', [PRODUCTION, { ...STAGING, name: 'prod' }], /environments\[1\]\.name: "prod" is used twice/],
    ['an empty label', [{ ...PRODUCTION, label: ' ' }], /environments\[0\]\.label: must not be empty/],
    ['a base URL that is not one', [{ ...PRODUCTION, baseUrl: 'kyc.example.org' }], /environments\[0\]\.baseUrl: must be an http/],
    ['a base URL with a query', [{ ...PRODUCTION, baseUrl: 'https://kyc.example.org/?a=1' }], /\.baseUrl: must not contain a query/],
    ['plain http to another machine', [{ ...PRODUCTION, baseUrl: 'http://kyc.example.org' }], /environments\[0\]\.baseUrl: http:\/\//],
    ['a missing client id', [{ ...PRODUCTION, clientId: undefined }], /environments\[0\]\.clientId: is missing/],
    ['an empty client id', [{ ...PRODUCTION, clientId: '' }], /\.clientId: must not be empty/],
    ['a client id with a line break', [{ ...PRODUCTION, clientId: 'a\nb' }], /\.clientId: must not contain control characters/],
    [
      'a missing key',
      [{ ...PRODUCTION, apiKeyEnv: undefined }],
      /environments\[0\]\.apiKeyEnv or environments\[0\]\.apiKeyFile is missing/,
    ],
    ['a key with a space', [{ ...PRODUCTION, apiKeyEnv: 'SPACED' }], /\.apiKeyEnv \(SPACED\): must be the key as issued/],
    [
      'a status key with a zero-width space',
      [{ ...PRODUCTION, statusApiKeyEnv: 'ZWSP' }],
      /\.statusApiKeyEnv \(ZWSP\): must be the key as issued/,
    ],
    ['a dashboard URL without a placeholder', [{ ...PRODUCTION, dashboardUrl: 'https://c.example.org/' }], /\.dashboardUrl: must contain/],
    ['a dashboard URL that is not one', [{ ...PRODUCTION, dashboardUrl: 'javascript:alert({refId})' }], /\.dashboardUrl: must be an http/],
    ['an unknown field', [{ ...PRODUCTION, apikeyEnv: 'PROD_KEY' }], /environments\[0\]: unknown field "apikeyEnv"/],
  ])('refuses %s, naming the entry and the field', (_, environments, message) => {
    const env = { ...KEYS, SPACED: 'SECRET with space', ZWSP: 'SECRET\u200b' };
    expect(errorOf({ ...env, CONFIG_FILE: fileWith({ environments }) })).toMatch(message);
  });

  it('refuses a missing file, naming the variable', () => {
    expect(errorOf({ CONFIG_FILE: path.join(dir, 'nope.json') })).toMatch(/CONFIG_FILE: no file at the path it names \(ENOENT\)/);
  });

  it('refuses the environments together with the single-service variables', () => {
    expect(errorOf({ ...KEYS, KYC_BASE_URL: 'https://x.example' }, { environments: [PRODUCTION] })).toMatch(
      /CONFIG_FILE lists environments and KYC_BASE_URL is set: list every service in one place/,
    );
  });

  it('allows plain http to another machine with "allowHttp": true, and always to loopback', () => {
    const file = {
      environments: [
        { ...PRODUCTION, baseUrl: 'http://kyc.example.org', allowHttp: true },
        { ...STAGING, baseUrl: 'http://127.0.0.1:4010' },
      ],
    };
    expect(parseConfig(KEYS, file).environments).toHaveLength(2);
  });
});

describe('batch budget, reply templates and the sandbox test switch', () => {
  it('reads limits.batchIdsPerMinute', () => {
    expect(parseConfig({}, { limits: { batchIdsPerMinute: 120 } }).limits.batchIdsPerMinute).toBe(120);
    expect(errorOf({}, { limits: { batchIdsPerMinute: 'lots' } })).toMatch(
      /CONFIG_FILE: limits\.batchIdsPerMinute: must be a whole number/,
    );
  });

  it('reads display.replyTemplates over the defaults, and names a bad entry', () => {
    const config = parseConfig({}, { display: { replyTemplates: { approved: 'All done for {refId}.' } } });
    expect(config.replyTemplates.approved).toEqual({ reply: 'All done for {refId}.' });
    expect(config.replyTemplates.blocked).toMatchObject({ reply: null });
    expect(errorOf({}, { display: { replyTemplates: { approved: 'Hi {name}' } } })).toMatch(
      /CONFIG_FILE: display\.replyTemplates\.approved: may use only the placeholders \{refId\}, \{recordId\}, \{status\}, \{since\} and \{field:<custom field>\}/,
    );
    expect(errorOf({}, { display: { replyTemplates: '{' } })).toMatch(/CONFIG_FILE: display\.replyTemplates: expected record/);
  });

  it('allows the sandbox test switch with the sandbox only', () => {
    const testControls = { sandbox: { testControls: true } };
    expect(parseConfig({}, testControls).sandbox.testControls).toBe(true);
    expect(errorOf({ KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'a', KYC_API_KEY: 'k' }, testControls)).toMatch(
      /sandbox\.testControls is for browser tests on the sandbox only/,
    );
    expect(errorOf(KEYS, { ...testControls, environments: [PRODUCTION] })).toMatch(/sandbox\.testControls/);
  });
});
