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
  apiKey: 'prod-full-SECRET-1',
  statusApiKey: 'prod-status-SECRET-2',
  dashboardUrl: 'https://console.example.org/kyc/{recordId}',
};
const STAGING = {
  name: 'staging',
  label: 'Staging',
  baseUrl: 'https://staging.example.org',
  clientId: 'acme_test',
  apiKey: 'staging-SECRET-3',
};

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

describe('KYC_ENVIRONMENTS_FILE', () => {
  it('reads every environment in order, the first being the default', () => {
    const config = parseConfig({ KYC_ENVIRONMENTS_FILE: fileWith([PRODUCTION, STAGING]) });
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
        },
        dashboardUrl: 'https://console.example.org/kyc/{recordId}',
      },
      {
        name: 'staging',
        label: 'Staging',
        upstream: { kind: 'remote', baseUrl: 'https://staging.example.org', clientId: 'acme_test', apiKey: 'staging-SECRET-3' },
      },
    ]);
  });

  it('makes the KYC_* variables a list of one, labelled by the host unless told otherwise', () => {
    const remote = { KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'acme', KYC_API_KEY: 'k' };
    expect(parseConfig(remote).environments).toEqual([
      {
        name: 'default',
        label: 'kyc.example.org',
        upstream: { kind: 'remote', baseUrl: 'https://kyc.example.org', clientId: 'acme', apiKey: 'k' },
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
    ['not JSON', '[{', /cannot read .* as JSON/],
    ['not a list', { name: 'prod' }, /the file must be a JSON array of environments/],
    ['an empty list', [], /must list at least one environment/],
    ['a missing name', [{ ...PRODUCTION, name: undefined }], /\[0\]\.name/],
    ['a name unfit for a URL', [{ ...PRODUCTION, name: 'Prod EU' }], /\[0\] \("Prod EU"\)\.name must be 1 to 32 lower-case letters/],
    ['a repeated name', [PRODUCTION, { ...STAGING, name: 'prod' }], /\[1\]\.name "prod" is used twice/],
    ['an empty label', [{ ...PRODUCTION, label: ' ' }], /\[0\] \("prod"\)\.label must not be empty/],
    ['a base URL that is not one', [{ ...PRODUCTION, baseUrl: 'kyc.example.org' }], /\[0\] \("prod"\)\.baseUrl must be an http/],
    ['a base URL with a query', [{ ...PRODUCTION, baseUrl: 'https://kyc.example.org/?a=1' }], /\.baseUrl must not contain a query/],
    ['plain http to another machine', [{ ...PRODUCTION, baseUrl: 'http://kyc.example.org' }], /\[0\] \("prod"\)\.baseUrl uses http:\/\//],
    ['a missing client id', [{ ...PRODUCTION, clientId: undefined }], /\[0\] \("prod"\)\.clientId/],
    ['an empty client id', [{ ...PRODUCTION, clientId: '' }], /\.clientId must not be empty/],
    ['a client id with a line break', [{ ...PRODUCTION, clientId: 'a\nb' }], /\.clientId must not contain control characters/],
    ['a missing key', [{ ...PRODUCTION, apiKey: undefined }], /\[0\] \("prod"\)\.apiKey is missing/],
    ['a key with a space', [{ ...PRODUCTION, apiKey: 'SECRET with space' }], /\.apiKey must be the key as issued/],
    ['a status key with a zero-width space', [{ ...PRODUCTION, statusApiKey: 'SECRET\u200b' }], /\.statusApiKey must be the key as issued/],
    ['a dashboard URL without a placeholder', [{ ...PRODUCTION, dashboardUrl: 'https://c.example.org/' }], /\.dashboardUrl must contain/],
    ['a dashboard URL that is not one', [{ ...PRODUCTION, dashboardUrl: 'javascript:alert({refId})' }], /\.dashboardUrl must be an http/],
    ['an unknown field', [{ ...PRODUCTION, apikey: 'SECRET' }], /\[0\] \("prod"\) unknown field "apikey"/],
  ])('refuses %s, naming the entry and the field', (_, content, message) => {
    expect(errorOf({ KYC_ENVIRONMENTS_FILE: fileWith(content) })).toMatch(message);
  });

  it('refuses a missing file, naming the variable', () => {
    expect(errorOf({ KYC_ENVIRONMENTS_FILE: path.join(dir, 'nope.json') })).toMatch(
      /KYC_ENVIRONMENTS_FILE \(.*nope\.json\):\n\s+cannot read/,
    );
  });

  it('refuses the file together with the single-service variables', () => {
    expect(errorOf({ KYC_ENVIRONMENTS_FILE: fileWith([PRODUCTION]), KYC_BASE_URL: 'https://x.example' })).toMatch(
      /KYC_ENVIRONMENTS_FILE is set and KYC_BASE_URL is set: list every service in one place/,
    );
  });

  it('allows plain http to another machine with "allowHttp": true in CONFIG_FILE, and always to loopback', () => {
    const keyless = ({ apiKey: _, ...entry }: typeof STAGING & { statusApiKey?: string }) => ({
      ...entry,
      statusApiKey: undefined,
      apiKeyEnv: 'KEY',
    });
    const file = {
      environments: [
        { ...keyless(PRODUCTION), baseUrl: 'http://kyc.example.org', allowHttp: true },
        { ...keyless(STAGING), baseUrl: 'http://127.0.0.1:4010' },
      ],
    };
    expect(parseConfig({ KEY: 'k' }, file).environments).toHaveLength(2);
    expect(parseConfig({ KYC_ENVIRONMENTS_FILE: fileWith([{ ...STAGING, baseUrl: 'http://127.0.0.1:4010' }]) }).environments).toHaveLength(
      1,
    );
  });
});

describe('batch budget, reply templates and the sandbox test switch', () => {
  it('reads limits.batchIdsPerMinute', () => {
    expect(parseConfig({}, { limits: { batchIdsPerMinute: 120 } }).rateLimitBatchPerMinute).toBe(120);
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
    expect(errorOf({ KYC_ENVIRONMENTS_FILE: fileWith([PRODUCTION]) }, testControls)).toMatch(/sandbox\.testControls/);
  });
});
