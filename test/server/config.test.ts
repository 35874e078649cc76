import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_FIELDS } from '../../src/kyc/contract/api.ts';
import { loadConfig, parseConfig } from '../../src/server/config/config.ts';
import { configErrorOf } from './config-error.ts';
import { envSchema, SECRET_VARIABLES } from '../../src/server/config/config-schema.ts';

const oidc = {
  mode: 'oidc',
  issuer: 'https://login.example.org/realms/staff',
  clientId: 'candidate-lookup',
  clientSecretEnv: 'OIDC_SECRET',
  redirectUrl: 'https://lookup.example.org/api/oidc/callback',
  complianceValues: ['kyc-compliance', 'kyc-leads'],
};
const oidcEnv = { OIDC_SECRET: 'the-secret' };
const remote = { KYC_BASE_URL: 'https://kyc.example.org/', KYC_CLIENT_ID: 'acme', KYC_API_KEY: 'k-123' };
const errorOf = configErrorOf;
const signIn = (entry: Record<string, unknown>) => ({ signIn: entry });

describe('configuration', () => {
  it('defaults to the embedded sandbox on loopback', () => {
    const config = parseConfig({});
    expect(config.environments[0]!.upstream).toEqual({ kind: 'sandbox' });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      limits: { upstreamTimeoutMs: 15000, maxResponseBytes: 64 * 1024 * 1024 },
    });
    expect(config.sandbox).toEqual({ largeImages: false, hostile: false, testControls: false });
    expect(config.auth).toEqual({ mode: 'local', allowUnauthenticated: false });
    expect(config).toMatchObject({ auditLog: '.candidate-lookup/audit.jsonl', limits: { lookupsPerMinute: 60, batchIdsPerMinute: 600 } });
    expect(config).toMatchObject({ defaultStateDir: '.candidate-lookup', logLevel: 'info' });
    expect(config.environments).toEqual([
      {
        name: 'sandbox',
        label: 'Sandbox',
        upstream: { kind: 'sandbox' },
        supportFields: ['rejectionReason', 'reviewReason', 'resubmitHint'],
      },
    ]);
  });

  it('LOG_FORMAT: unset leaves the choice to stdout, pretty or json is taken, anything else is refused', () => {
    expect(parseConfig({}).logFormat).toBeUndefined();
    expect(parseConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(parseConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(errorOf({ LOG_FORMAT: 'xml' })).toContain('LOG_FORMAT must be one of pretty, json');
  });

  it('reads a remote upstream, without the trailing slash', () => {
    const config = parseConfig(
      { ...remote, PORT: '9000', HOST: '0.0.0.0' },
      { signIn: { mode: 'local', allowUnauthenticated: true }, limits: { upstreamTimeoutMs: 5000, maxResponseBytes: 2048 } },
    );
    expect(config.environments[0]!.upstream).toEqual({
      kind: 'remote',
      baseUrl: 'https://kyc.example.org',
      clientId: 'acme',
      apiKey: 'k-123',
      // Where the keys are set, for the words of a rejected key (never a value).
      keySettings: { environment: 'default', full: 'KYC_API_KEY', clientId: 'KYC_CLIENT_ID', baseUrl: 'KYC_BASE_URL' },
    });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 9000, limits: { upstreamTimeoutMs: 5000, maxResponseBytes: 2048 } });
  });

  it('treats empty values as unset (a copied .env.example)', () => {
    expect(parseConfig({ KYC_BASE_URL: '', KYC_CLIENT_ID: '', KYC_API_KEY: ' ', PORT: '' }).environments[0]!.upstream.kind).toBe('sandbox');
  });

  it('refuses a base URL without a key or client id, naming them', () => {
    expect(errorOf({ KYC_BASE_URL: 'https://kyc.example.org' })).toMatch(/KYC_CLIENT_ID and KYC_API_KEY must be set/);
    expect(errorOf({ KYC_BASE_URL: 'https://kyc.example.org', KYC_CLIENT_ID: 'a' })).toMatch(/KYC_API_KEY must be set/);
  });

  it('refuses a key without a base URL rather than silently using the sandbox', () => {
    expect(errorOf({ KYC_API_KEY: 'k' })).toMatch(/KYC_API_KEY is set but KYC_BASE_URL is not/);
  });

  it('refuses a bad URL, a non-numeric port and other bad numbers, naming the variable and never the key', () => {
    expect(errorOf({ ...remote, KYC_BASE_URL: 'kyc.example.org' })).toMatch(/KYC_BASE_URL must be an http/);
    expect(errorOf({ ...remote, KYC_BASE_URL: 'ftp://kyc.example.org' })).toMatch(/KYC_BASE_URL/);
    expect(errorOf({ ...remote, KYC_BASE_URL: 'https://kyc.example.org/?a=1' })).toMatch(/KYC_BASE_URL must not contain a query/);
    expect(errorOf({ PORT: 'eighty' })).toMatch(/PORT must be a whole number/);
    expect(errorOf({ PORT: '70000' })).toMatch(/PORT must be at most 65535/);
    expect(errorOf({}, { limits: { upstreamTimeoutMs: 1.5 } })).toMatch(/CONFIG_FILE: limits\.upstreamTimeoutMs: must be a whole number/);
    expect(errorOf({}, { limits: { maxResponseBytes: -1 } })).toMatch(/CONFIG_FILE: limits\.maxResponseBytes: must be at least 1024/);
    expect(errorOf({}, { sandbox: { largeImages: 'yes' } })).toMatch(/CONFIG_FILE: sandbox\.largeImages: expected boolean/);
    const message = errorOf({ ...remote, KYC_API_KEY: 'secret\r\nX: 1' });
    expect(message).toMatch(/KYC_API_KEY must be the key as issued/);
    expect(errorOf({ ...remote, KYC_API_KEY: 'key\u200bwith-zero-width-space' })).toMatch(/KYC_API_KEY must be the key as issued/);
    expect(message).not.toContain('secret');
  });

  it('refuses to listen beyond loopback with no sign-in, unless told to', () => {
    expect(errorOf({ HOST: '0.0.0.0' })).toMatch(
      /HOST=0\.0\.0\.0 would let anyone .* signIn in CONFIG_FILE \(mode "users", "proxy" or "oidc"\), or .*"allowUnauthenticated": true/s,
    );
    expect(parseConfig({ HOST: '0.0.0.0' }, signIn({ mode: 'local', allowUnauthenticated: true })).auth).toEqual({
      mode: 'local',
      allowUnauthenticated: true,
    });
    expect(parseConfig({ HOST: '::1' }).host).toBe('::1');
    expect(parseConfig({ HOST: '0.0.0.0' }, signIn({ mode: 'users', usersFile: 'users.json' })).auth.mode).toBe('users');
  });

  it('reads the built-in users mode and the identity-aware proxy mode', () => {
    expect(parseConfig({}, signIn({ mode: 'users', usersFile: 'u.json', sessionMaxAgeMinutes: 120, sessionIdleMinutes: 15 })).auth).toEqual(
      {
        mode: 'users',
        usersFile: 'u.json',
        sessionMaxAgeMinutes: 120,
        sessionIdleMinutes: 15,
      },
    );
    expect(
      parseConfig(
        {},
        signIn({ mode: 'proxy', userHeader: 'X-Forwarded-User', roleHeader: 'X-Role', trustedProxies: ['127.0.0.1', '10.0.0.0/8', '::1'] }),
      ).auth,
    ).toEqual({ mode: 'proxy', userHeader: 'x-forwarded-user', roleHeader: 'x-role', trusted: ['127.0.0.1', '10.0.0.0/8', '::1'] });
  });

  it('refuses a half-configured or contradictory sign-in, naming its place in the file', () => {
    expect(errorOf({}, signIn({ mode: 'proxy', userHeader: 'X-User' }))).toMatch(
      /CONFIG_FILE: signIn\.roleHeader: is missing\n\s+CONFIG_FILE: signIn\.trustedProxies: is missing/,
    );
    // One mode at a time: the fields of another mode are unknown in this one.
    expect(errorOf({}, signIn({ mode: 'users', usersFile: 'u.json', userHeader: 'X-User' }))).toMatch(
      /CONFIG_FILE: signIn: unknown field "userHeader"/,
    );
    expect(errorOf({}, signIn({ ...oidc, usersFile: 'u.json' }))).toMatch(/CONFIG_FILE: signIn: unknown field "usersFile"/);
    expect(errorOf({}, signIn({ usersFile: 'u.json' }))).toMatch(
      /CONFIG_FILE: signIn\.mode: must have a mode: "local", "users", "proxy" or "oidc"/,
    );
    expect(errorOf({}, signIn({ mode: 'proxy', userHeader: 'X User', roleHeader: 'r', trustedProxies: ['1.2.3.4'] }))).toMatch(
      /CONFIG_FILE: signIn\.userHeader: must be an HTTP header name/,
    );
    expect(errorOf({}, signIn({ mode: 'proxy', userHeader: 'u', roleHeader: 'r', trustedProxies: ['10.0.0.0/33'] }))).toMatch(
      /signIn\.trustedProxies\[0\]: must be an address or a CIDR/,
    );
    expect(errorOf({ KYC_API_KEY_STATUS: 'k' })).toMatch(/KYC_API_KEY_STATUS is set but KYC_BASE_URL is not/);
  });

  it('reads the OpenID Connect mode, with defaults for the claim, the scopes and the provider name', () => {
    const config = parseConfig({ ...oidcEnv, HOST: '0.0.0.0' }, signIn({ ...oidc, sessionIdleMinutes: 20 }));
    expect(config.auth).toEqual({
      mode: 'oidc',
      sessionMaxAgeMinutes: 480,
      sessionIdleMinutes: 20,
      oidc: {
        issuer: 'https://login.example.org/realms/staff',
        clientId: 'candidate-lookup',
        clientSecret: 'the-secret',
        redirectUrl: 'https://lookup.example.org/api/oidc/callback',
        roleClaim: 'groups',
        complianceValues: ['kyc-compliance', 'kyc-leads'],
        supportValues: [],
        leadValues: [],
        scopes: 'openid email profile',
        providerName: 'login.example.org',
      },
    });
    const custom = parseConfig(
      oidcEnv,
      signIn({
        ...oidc,
        roleClaim: 'realm_access.roles',
        supportValues: ['support'],
        scopes: ['openid', 'email', 'groups'],
        providerName: 'Okta',
      }),
    ).auth;
    expect(custom).toMatchObject({
      oidc: { roleClaim: 'realm_access.roles', supportValues: ['support'], scopes: 'openid email groups', providerName: 'Okta' },
    });
  });

  it('refuses a half-configured OpenID Connect sign-in, naming its place in the file, and never shows the secret', () => {
    const { clientSecretEnv: _, ...noSecret } = oidc;
    expect(errorOf(oidcEnv, signIn(noSecret))).toMatch(/signIn\.clientSecretEnv or signIn\.clientSecretFile is missing/);
    expect(errorOf({}, signIn(oidc))).toMatch(/signIn\.clientSecretEnv: the variable it names is not set/);
    expect(errorOf({}, signIn({ mode: 'oidc', issuer: oidc.issuer }))).toMatch(
      /CONFIG_FILE: signIn\.clientId: is missing\n\s+CONFIG_FILE: signIn\.redirectUrl: is missing/,
    );
    const { complianceValues: __, ...noRoles } = oidc;
    expect(errorOf(oidcEnv, signIn(noRoles))).toMatch(
      /CONFIG_FILE: signIn: complianceValues, supportValues or leadValues must say which groups values give a role/,
    );
    expect(errorOf(oidcEnv, signIn({ ...oidc, issuer: 'login.example.org' }))).toMatch(
      /CONFIG_FILE: signIn\.issuer: must be an https:\/\/ URL/,
    );
    expect(errorOf(oidcEnv, signIn({ ...oidc, issuer: 'http://login.example.org' }))).toMatch(
      /CONFIG_FILE: signIn\.issuer: must use https:\/\//,
    );
    expect(errorOf(oidcEnv, signIn({ ...oidc, redirectUrl: 'https://lookup.example.org/callback' }))).toMatch(
      /signIn\.redirectUrl: must be this server's address followed by \/api\/oidc\/callback/,
    );
    expect(errorOf(oidcEnv, signIn({ ...oidc, scopes: ['email', 'profile'] }))).toMatch(/signIn\.scopes: must include "openid"/);
    expect(errorOf(oidcEnv, signIn({ ...oidc, complianceValues: [] }))).toMatch(/signIn\.complianceValues: must list at least one value/);
    const message = errorOf({ OIDC_SECRET: 'the secret\n' }, signIn(oidc));
    expect(message).toMatch(/CONFIG_FILE: signIn\.clientSecretEnv \(OIDC_SECRET\): must be the client secret as issued/);
    expect(message).not.toContain('the secret');
    expect(errorOf(oidcEnv, signIn({ ...oidc, clientSecret: 'inline-secret' }))).toMatch(
      /signIn\.clientSecret: is not read: the file holds no keys\. Name the variable that holds it \(clientSecretEnv\) or a file with it \(clientSecretFile\)/,
    );
    // A provider on this machine (development, tests) may use plain http.
    expect(
      parseConfig(oidcEnv, signIn({ ...oidc, issuer: 'http://127.0.0.1:9000', redirectUrl: 'http://localhost:8080/api/oidc/callback' }))
        .auth.mode,
    ).toBe('oidc');
  });

  it('reads REDIS_URL, and refuses anything but a redis:// or rediss:// URL', () => {
    expect(parseConfig({}).redisUrl).toBeUndefined();
    expect(parseConfig({ REDIS_URL: 'rediss://:pw@redis.internal:6380/1' }).redisUrl).toBe('rediss://:pw@redis.internal:6380/1');
    expect(errorOf({ REDIS_URL: 'http://redis.internal' })).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(errorOf({ REDIS_URL: 'redis.internal:6379' })).toMatch(/REDIS_URL must be/);
  });

  it('reads the audit table: DATABASE_URL (or its file), AUDIT_INSTANCE and audit.retentionDays, refusing what cannot be one (issue 34)', () => {
    const none = parseConfig({});
    expect(none.databaseUrl).toBeUndefined();
    expect(none.auditRetentionDays).toBe(365);
    expect(none.auditInstance).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
    const url = 'postgres://audit:pw@db.internal:5432/audit';
    const set = parseConfig({ DATABASE_URL: url, AUDIT_INSTANCE: 'app1' }, { audit: { retentionDays: 30 } });
    expect(set).toMatchObject({ databaseUrl: url, auditInstance: 'app1', auditRetentionDays: 30 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-db-url-'));
    writeFileSync(path.join(dir, 'url'), `${url}\n`);
    expect(parseConfig({ DATABASE_URL_FILE: path.join(dir, 'url') }).databaseUrl).toBe(url);
    expect(errorOf({ DATABASE_URL: 'mysql://db/audit' })).toMatch(/DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(errorOf({ DATABASE_URL: url, DATABASE_URL_FILE: path.join(dir, 'url') })).toMatch(
      /DATABASE_URL and DATABASE_URL_FILE are both set/,
    );
    expect(errorOf({ AUDIT_INSTANCE: 'app 1' })).toMatch(/AUDIT_INSTANCE must be 1 to 64 letters/);
    expect(errorOf({}, { audit: { retentionDays: 0 } })).toMatch(/audit\.retentionDays: must be at least 1/);
    // The password is never repeated in a message.
    expect(errorOf({ DATABASE_URL: 'mysql://u:secret-pw@db/audit' })).not.toContain('secret-pw');
  });

  it('reads TRUSTED_PROXIES (with the identity-aware proxy in proxy mode), and refuses it with no sign-in', () => {
    expect(parseConfig({}).trustedProxies).toEqual([]);
    const users = signIn({ mode: 'users', usersFile: 'u.json' });
    expect(parseConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }, users).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const proxy = signIn({ mode: 'proxy', userHeader: 'X-User', roleHeader: 'X-Role', trustedProxies: ['10.1.0.0/16'] });
    expect(parseConfig({ TRUSTED_PROXIES: '10.2.0.0/16' }, proxy).trustedProxies).toEqual(['10.2.0.0/16', '10.1.0.0/16']);
    expect(errorOf({ TRUSTED_PROXIES: 'nginx' }, users)).toMatch(/TRUSTED_PROXIES must be a comma-separated list/);
    expect(errorOf({ TRUSTED_PROXIES: '127.0.0.1' })).toMatch(
      /TRUSTED_PROXIES is set, but local mode answers this machine only, and no sign-in is configured/,
    );
    expect(parseConfig({ TRUSTED_PROXIES: '127.0.0.1' }, signIn({ mode: 'local', allowUnauthenticated: true })).trustedProxies).toEqual([
      '127.0.0.1',
    ]);
  });

  it('refuses plain http to another machine, unless told the connection is protected otherwise', () => {
    expect(errorOf({ ...remote, KYC_BASE_URL: 'http://kyc.example.org' })).toMatch(/http:\/\/ to another machine.*"allowHttp": true/s);
    const entry = { name: 'prod', label: 'Production', baseUrl: 'http://kyc.example.org', clientId: 'acme', apiKeyEnv: 'PROD_KEY' };
    expect(errorOf({ PROD_KEY: 'k' }, { environments: [entry] })).toMatch(
      /CONFIG_FILE: environments\[0\]\.baseUrl: http:\/\/ to another machine would send the API key unencrypted/,
    );
    expect(parseConfig({ PROD_KEY: 'k' }, { environments: [{ ...entry, allowHttp: true }] }).environments[0]!.upstream.kind).toBe('remote');
    expect(parseConfig({ ...remote, KYC_BASE_URL: 'http://127.0.0.1:4010' }).environments[0]!.upstream.kind).toBe('remote');
  });

  it('reads the status key, the audit log path and the rate limit', () => {
    const config = parseConfig(
      { ...remote, KYC_API_KEY_STATUS: 's-1', AUDIT_LOG: '/var/log/cl.jsonl' },
      { limits: { lookupsPerMinute: 0 } },
    );
    expect(config.environments[0]!.upstream).toMatchObject({ statusApiKey: 's-1' });
    expect(config).toMatchObject({ auditLog: '/var/log/cl.jsonl', limits: { lookupsPerMinute: 0 } });
  });

  it('reads what to do with a key that archives after extract, per environment: refuse unless told to accept', () => {
    const entry = { name: 'prod', label: 'Production', baseUrl: 'https://kyc.example.org', clientId: 'acme', apiKeyEnv: 'PROD_KEY' };
    const env = { PROD_KEY: 'k' };
    expect(parseConfig(env, { environments: [entry] }).environments[0]!.archiveOnExtract).toBeUndefined();
    expect(parseConfig(env, { environments: [{ ...entry, archiveOnExtract: 'accept' }] }).environments[0]!.archiveOnExtract).toBe('accept');
    expect(errorOf(env, { environments: [{ ...entry, archiveOnExtract: 'yes' }] })).toMatch(
      /CONFIG_FILE: environments\[0\]\.archiveOnExtract: must be "refuse" \(the default\) or "accept"/,
    );
  });

  it('reads the decision summary fields and the privacy mask default, with defaults for both', () => {
    expect(parseConfig({}).display).toEqual({ summaryFields: [...DEFAULT_SUMMARY_FIELDS], privacyMaskDefault: false });
    expect(parseConfig({}, { display: { summaryFields: ['riskLevel', 'Case Owner'], privacyMask: 'on' } }).display).toEqual({
      summaryFields: ['riskLevel', 'Case Owner'],
      privacyMaskDefault: true,
    });
    expect(parseConfig({}, { display: { privacyMask: 'off' } }).display.privacyMaskDefault).toBe(false);
    expect(errorOf({}, { display: { privacyMask: 'yes please' } })).toMatch(/CONFIG_FILE: display\.privacyMask: must be "on" or "off"/);
    expect(errorOf({}, { display: { summaryFields: [] } })).toMatch(
      /CONFIG_FILE: display\.summaryFields: must name at least one custom field/,
    );
  });

  it('reads a .env file in the project root, the environment winning', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-env-'));
    writeFileSync(
      path.join(dir, '.env'),
      `# comment\nKYC_BASE_URL=https://from-file.example\nKYC_CLIENT_ID=file\nKYC_API_KEY="from-file"\nPORT=7000\n`,
    );
    const config = loadConfig({ PORT: '7100' }, dir);
    expect(config.environments[0]!.upstream).toEqual({
      kind: 'remote',
      baseUrl: 'https://from-file.example',
      clientId: 'file',
      apiKey: 'from-file',
      keySettings: { environment: 'default', full: 'KYC_API_KEY', clientId: 'KYC_CLIENT_ID', baseUrl: 'KYC_BASE_URL' },
    });
    expect(config.port).toBe(7100);
    expect(loadConfig({}, os.tmpdir()).environments[0]!.upstream.kind).toBe('sandbox');
  });

  it('documents every variable the server reads: a row of docs/configuration.md and a line of .env.example each', () => {
    const root = path.join(import.meta.dirname, '../..');
    const checked = [...Object.keys(envSchema.shape), ...SECRET_VARIABLES.map((name) => `${name}_FILE`)];
    const reference = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const rows = new Set([...reference.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]));
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    const lines = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
    // The secrets' _FILE forms are said in one sentence under the table, not a row each.
    expect(checked.filter((name) => !rows.has(name) && !reference.includes(`\`${name}\``))).toEqual([]);
    // The quick start's six: KYC_BASE_URL, KYC_CLIENT_ID, KYC_API_KEY, KYC_API_KEY_STATUS, KYC_WEBHOOK_SECRET, SUPPORT_FIELDS.
    expect(
      Object.keys(envSchema.shape).length,
      'at most 15 variables for how the instance runs, besides the quick start',
    ).toBeLessThanOrEqual(15 + 6);
    expect(Object.keys(envSchema.shape).filter((name) => !lines.has(name))).toEqual([]);
    // .env.example lists only the variables the server reads: none it would refuse as removed.
    expect([...lines].filter((name) => !checked.includes(name))).toEqual([]);
    // Nothing in the server reads a variable around the schema, where it would go unchecked and undocumented.
    const sources = readdirSync(path.join(root, 'src/server'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const readDirectly = sources.flatMap((file) =>
      [...readFileSync(path.join(root, 'src/server', file), 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!),
    );
    expect(readDirectly.filter((name) => !checked.includes(name))).toEqual([]);
  });

  it('accepts .env.example copied as it is, which means the sandbox on loopback', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-env-example-'));
    writeFileSync(path.join(dir, '.env'), readFileSync(path.join(import.meta.dirname, '../../.env.example')));
    const config = loadConfig({}, dir);
    expect(config.environments[0]!.upstream.kind).toBe('sandbox');
    expect(config.auth.mode).toBe('local');
    expect(config.host).toBe('127.0.0.1');
  });
});
