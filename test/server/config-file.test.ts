import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config/config.ts';
import { CONFIG_SCHEMA_PATH, configJsonSchema } from '../../src/server/config/json-schema.ts';
import { configErrorOf } from './config-error.ts';
import { REMOVED_VARIABLES } from '../../src/server/config/removed-variables.ts';
import { resolveUpstream } from '../../src/server/composition/resolve-upstream.ts';
import { parseSandboxArgs } from '../../src/server/sandbox/sandbox-args.ts';

const root = path.join(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-config-file-'));
const fileWith = (content: unknown, name = `c-${Math.random().toString(36).slice(2)}.json`) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const errorOf = configErrorOf;
const PRODUCTION = { name: 'production', label: 'Production', baseUrl: 'https://kyc.example.org', clientId: 'acme', apiKeyEnv: 'PROD_KEY' };

describe('CONFIG_FILE', () => {
  it('is read from its path, and each problem names the file and the JSON path', () => {
    const good = fileWith({ environments: [PRODUCTION], display: { privacyMask: 'on' } });
    const config = parseConfig({ CONFIG_FILE: good, PROD_KEY: 'k-prod' });
    expect(config.environments[0]!.upstream).toEqual({
      kind: 'remote',
      baseUrl: 'https://kyc.example.org',
      clientId: 'acme',
      apiKey: 'k-prod',
      keySettings: {
        environment: 'production',
        full: 'environments[0].apiKeyEnv (the variable PROD_KEY)',
        clientId: 'environments[0].clientId',
        baseUrl: 'environments[0].baseUrl',
      },
    });
    expect(config.display.privacyMaskDefault).toBe(true);

    const bad = fileWith({
      environments: [PRODUCTION, { ...PRODUCTION, name: 'staging', baseUrl: 'kyc-staging' }],
      limits: { lookupsPerMinute: -1 },
    });
    const message = errorOf({ CONFIG_FILE: bad, PROD_KEY: 'k' });
    expect(message).toContain(`CONFIG_FILE ${bad}: environments[1].baseUrl: must be an http:// or https:// URL`);
    expect(message).toContain(`CONFIG_FILE ${bad}: limits.lookupsPerMinute: must be at least 0`);
    expect(errorOf({ CONFIG_FILE: fileWith('{ "environments": [') })).toMatch(
      /CONFIG_FILE .*: the file is not valid JSON: it ends too soon \(line 1, column 20\)/,
    );
    expect(errorOf({ CONFIG_FILE: path.join(dir, 'missing.json') })).toMatch(/CONFIG_FILE: no file at the path it names \(ENOENT\)/);
    expect(errorOf({}, { enviroments: [] })).toMatch(/CONFIG_FILE: the file unknown field "enviroments"/);
  });

  it('a key pasted inline into CONFIG_FILE is refused, saying how to give it, and its value is never repeated', () => {
    const { apiKeyEnv: _, ...entry } = PRODUCTION;
    const message = errorOf({}, { environments: [{ ...entry, apiKey: 'sk-live-inline-secret', statusApiKey: 'sk-status-inline' }] });
    expect(message).toMatch(
      /environments\[0\]\.apiKey: is not read: the file holds no keys\. Name the variable that holds it \(apiKeyEnv\) or a file with it \(apiKeyFile\)/,
    );
    expect(message).toMatch(/environments\[0\]\.statusApiKey: is not read: .*\(statusApiKeyEnv\) or a file with it \(statusApiKeyFile\)/);
    expect(message).not.toContain('sk-live-inline-secret');
    expect(message).not.toContain('sk-status-inline');
  });

  it('reads each key from the variable or the file the entry names, and says which is missing', () => {
    const keyFile = fileWith('k-from-file\n', 'status.key');
    const both = parseConfig({ PROD_KEY: 'k-prod' }, { environments: [{ ...PRODUCTION, statusApiKeyFile: keyFile }] });
    expect(both.environments[0]!.upstream).toMatchObject({ apiKey: 'k-prod', statusApiKey: 'k-from-file' });
    expect(errorOf({}, { environments: [PRODUCTION] })).toMatch(
      /CONFIG_FILE: environments\[0\]\.apiKeyEnv: the variable it names is not set/,
    );
    const { apiKeyEnv: _, ...noKey } = PRODUCTION;
    expect(errorOf({}, { environments: [noKey] })).toMatch(/environments\[0\]\.apiKeyEnv or environments\[0\]\.apiKeyFile is missing/);
    expect(errorOf({ PROD_KEY: 'k' }, { environments: [{ ...PRODUCTION, apiKeyFile: keyFile }] })).toMatch(
      /environments\[0\]\.apiKeyEnv, environments\[0\]\.apiKeyFile: give one of them, not both/,
    );
    expect(errorOf({}, { environments: [{ ...noKey, apiKeyFile: path.join(dir, 'nope.key') }] })).toMatch(
      /environments\[0\]\.apiKeyFile: no file at the path it names \(ENOENT\)/,
    );
    const message = errorOf({ PROD_KEY: 'k-with\r\nX-Injected: 1' }, { environments: [PRODUCTION] });
    expect(message).toMatch(/environments\[0\]\.apiKeyEnv \(PROD_KEY\): must be the key as issued/);
    expect(message).not.toContain('X-Injected');
  });

  it('takes each secret variable from NAME_FILE too, but not both ways at once', () => {
    const keyFile = fileWith('k-file\n', 'api.key');
    const config = parseConfig({ KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'acme', KYC_API_KEY_FILE: keyFile });
    expect(config.environments[0]!.upstream).toMatchObject({ apiKey: 'k-file' });
    expect(parseConfig({ REDIS_URL_FILE: fileWith('redis://:pw@redis.internal:6379\n') }).redisUrl).toBe('redis://:pw@redis.internal:6379');
    expect(errorOf({ KYC_API_KEY: 'k', KYC_API_KEY_FILE: keyFile })).toMatch(/KYC_API_KEY and KYC_API_KEY_FILE are both set/);
    expect(errorOf({ KYC_API_KEY_STATUS_FILE: path.join(dir, 'gone') })).toMatch(
      /KYC_API_KEY_STATUS_FILE: no file at the path it names \(ENOENT\)/,
    );
  });

  it('keeps the environments of CONFIG_FILE and the quick start apart', () => {
    expect(errorOf({ PROD_KEY: 'k', KYC_BASE_URL: 'https://x.example' }, { environments: [PRODUCTION] })).toMatch(
      /CONFIG_FILE lists environments and KYC_BASE_URL is set: list every service in one place/,
    );
    // The rest of the file still applies to the quick start's one environment.
    const quick = parseConfig(
      { KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'acme', KYC_API_KEY: 'k' },
      { display: { summaryFields: ['riskLevel'] } },
    );
    expect(quick.environments.map((e) => e.name)).toEqual(['default']);
    expect(quick.display.summaryFields).toEqual(['riskLevel']);
  });

  it("serves an environment's tone, summary fields, reply texts and archive policy as its own", async () => {
    const config = parseConfig(
      { PROD_KEY: 'k', STAGING_KEY: 's' },
      {
        environments: [
          {
            ...PRODUCTION,
            tone: 'danger',
            summaryFields: ['Case owner'],
            replyTemplates: { approved: 'Done: {refId}.' },
            archiveOnExtract: 'accept',
          },
          { ...PRODUCTION, name: 'staging', label: 'Staging', tone: 'warning', apiKeyEnv: 'STAGING_KEY' },
        ],
      },
    );
    const { environments } = await resolveUpstream(config);
    expect(environments[0]!.info.tone).toBe('danger');
    expect(environments[0]).toMatchObject({ summaryFields: ['Case owner'], archiveOnExtract: 'accept' });
    expect(environments[0]!.replyTemplates!.approved).toEqual({ reply: 'Done: {refId}.' });
    expect(environments[1]!.info.tone).toBe('warning');
    expect(environments[1]!.summaryFields).toBeUndefined();
    expect(errorOf({ PROD_KEY: 'k' }, { environments: [{ ...PRODUCTION, tone: 'red' }] })).toMatch(
      /environments\[0\]\.tone: expected one of "danger"\|"warning"\|"neutral"/,
    );
  });

  it('reads the deadlines and connection caps of limits, with their defaults, and refuses a request deadline shorter than the headers’', () => {
    expect(parseConfig({}, {}).connections).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, perAddress: 256 });
    expect(parseConfig({}, {}).limits.webhookBodyTimeoutMs).toBe(5000);
    const limits = {
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      connectionsPerAddress: 0,
      anonymousConnections: 900,
      webhookBodyTimeoutMs: 800,
    };
    const config = parseConfig({}, { limits });
    expect(config.connections).toEqual({ headersTimeoutMs: 2000, requestTimeoutMs: 4000, perAddress: 0, anonymous: 900 });
    expect(config.limits.webhookBodyTimeoutMs).toBe(800);
    expect(errorOf({}, { limits: { headersTimeoutMs: 40_000 } })).toContain(
      'limits.requestTimeoutMs: requestTimeoutMs must be at least headersTimeoutMs: the headers are part of the request',
    );
    expect(errorOf({}, { limits: { connectionsPerAddress: -1 } })).toContain('limits.connectionsPerAddress: must be at least 0');
    expect(errorOf({}, { limits: { upstreamAnswerTimeoutMs: 5000 } })).toContain(
      "limits.upstreamAnswerTimeoutMs: upstreamAnswerTimeoutMs must be at least upstreamTimeoutMs: the service's answer starts with its status line",
    );
  });

  it('reads limits.exportAfterLookupMinutes from the file, 720 without it, and refuses one outside 1 to 10080 whole minutes', () => {
    expect(parseConfig({}, {}).limits.exportAfterLookupMinutes).toBe(720);
    const file = fileWith({ limits: { exportAfterLookupMinutes: 1440 } });
    expect(parseConfig({ CONFIG_FILE: file }).limits.exportAfterLookupMinutes).toBe(1440);
    for (const [minutes, problem] of [
      [0, 'must be at least 1'],
      [10_081, 'must be at most 10080'],
      [1.5, 'must be a whole number'],
      ['720', 'must be a whole number'],
    ] as const) {
      const bad = fileWith({ limits: { exportAfterLookupMinutes: minutes } });
      expect(errorOf({ CONFIG_FILE: bad }), String(minutes)).toContain(`CONFIG_FILE ${bad}: limits.exportAfterLookupMinutes: ${problem}`);
    }
  });

  it('stops at start on a variable it no longer reads, naming its place in the file', () => {
    expect(errorOf({ SUMMARY_FIELDS: 'riskLevel' })).toContain(
      'SUMMARY_FIELDS is no longer read: put it in CONFIG_FILE at environments[].summaryFields (or display.summaryFields for every environment)',
    );
    expect(errorOf({ AUTH_USERS_FILE: 'users.json' })).toContain(
      'AUTH_USERS_FILE is no longer read: put it in CONFIG_FILE at signIn: { "mode": "users", "usersFile": "…" }',
    );
    expect(errorOf({ SANDBOX_PORT: '4010' })).toContain('SANDBOX_PORT is no longer read: give npm run sandbox -- --port <port>');
    // Empty counts as unset (a copied .env of before), and a variable the file names as a secret is read.
    expect(parseConfig({ SUMMARY_FIELDS: '', RATE_LIMIT_PER_MINUTE: ' ' }).environments[0]!.name).toBe('sandbox');
    const oidc = {
      mode: 'oidc',
      issuer: 'https://login.example.org',
      clientId: 'cl',
      clientSecretEnv: 'OIDC_CLIENT_SECRET',
      redirectUrl: 'http://127.0.0.1:8080/api/oidc/callback',
      supportValues: ['support'],
    };
    expect(parseConfig({ OIDC_CLIENT_SECRET: 'the-secret' }, { signIn: oidc }).auth).toMatchObject({
      oidc: { clientSecret: 'the-secret' },
    });
  });

  it('refuses every removed variable with any value, whatever else is set', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(REMOVED_VARIABLES)),
        fc.string({ minLength: 1 }).filter((value) => value.trim() !== ''),
        fc.boolean(),
        (name, value, quickStart) => {
          const env = {
            [name]: value,
            ...(quickStart ? { KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'a', KYC_API_KEY: 'k' } : {}),
          };
          const message = errorOf(env);
          expect(message).toContain(`${name} is no longer read: ${REMOVED_VARIABLES[name]}.`);
          expect(REMOVED_VARIABLES[name]).toMatch(/CONFIG_FILE at |npm run sandbox -- --/);
        },
      ),
    );
  });

  it('has a committed JSON Schema that matches the zod schema (npm run config:schema writes it)', () => {
    const committed: unknown = JSON.parse(readFileSync(path.join(root, CONFIG_SCHEMA_PATH), 'utf8'));
    expect(committed, 'docs/config.schema.json is stale: run npm run config:schema').toEqual(JSON.parse(configJsonSchema()));
  });

  it("accepts docs/configuration.md's complete example", () => {
    const doc = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const example = /## The file\n[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)![1]!;
    const config = parseConfig(
      { KYC_PRODUCTION_KEY: 'p', KYC_STAGING_KEY: 's', OIDC_CLIENT_SECRET: 'o', HOST: '0.0.0.0' },
      {
        ...JSON.parse(example),
        environments: JSON.parse(example).environments.map((e: object) => ({ ...e, statusApiKeyFile: undefined })),
      },
    );
    expect(config.environments.map((e) => [e.name, e.tone])).toEqual([
      ['production', 'danger'],
      ['staging', 'warning'],
    ]);
    expect(config.auth.mode).toBe('oidc');
  });
});

describe('npm run sandbox flags', () => {
  it('reads its switches as flags, and refuses its variables of before with the flag that replaced them', () => {
    expect(parseSandboxArgs([], {})).toEqual({ host: '127.0.0.1', port: 4010, largeImages: false, hostile: false, testControls: false });
    expect(
      parseSandboxArgs(['--port', '0', '--host', '::1', '--data', 'd.json', '--large-images', '--hostile', '--test-controls'], {}),
    ).toEqual({
      host: '::1',
      port: 0,
      dataFile: 'd.json',
      largeImages: true,
      hostile: true,
      testControls: true,
    });
    expect(() => parseSandboxArgs(['--port', 'eighty'], {})).toThrow(/--port must be a whole number/);
    expect(() => parseSandboxArgs(['--large'], {})).toThrow(/Unknown option '--large'[\s\S]*usage: npm run sandbox/);
    expect(() => parseSandboxArgs([], { SANDBOX_LARGE_IMAGES: '1' })).toThrow(/SANDBOX_LARGE_IMAGES is no longer read: .*--large-images/);
  });
});
