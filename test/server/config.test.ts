import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_FIELDS } from '../../src/kyc/contract/api.ts';
import { ConfigError, loadConfig, parseConfig } from '../../src/server/config/config.ts';
import { envSchema } from '../../src/server/config/config-schema.ts';

const oidc = {
  OIDC_ISSUER: 'https://login.example.org/realms/staff',
  OIDC_CLIENT_ID: 'candidate-lookup',
  OIDC_CLIENT_SECRET: 'the-secret',
  OIDC_REDIRECT_URL: 'https://lookup.example.org/api/oidc/callback',
  OIDC_COMPLIANCE_VALUES: 'kyc-compliance, kyc-leads',
};
const remote = { KYC_BASE_URL: 'https://kyc.example.org/', KYC_CLIENT_ID: 'acme', KYC_API_KEY: 'k-123' };
const errorOf = (env: Record<string, string>) => {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  it('defaults to the embedded sandbox on loopback', () => {
    const config = parseConfig({});
    expect(config.environments[0]!.upstream).toEqual({ kind: 'sandbox' });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, timeoutMs: 15000, maxResponseBytes: 64 * 1024 * 1024 });
    expect(config.sandbox).toEqual({
      dataFile: undefined,
      largeImages: false,
      host: '127.0.0.1',
      port: 4010,
      hostile: false,
      testControls: false,
    });
    expect(config.auth).toEqual({ mode: 'local', allowUnauthenticated: false });
    expect(config).toMatchObject({ auditLog: '.candidate-lookup/audit.jsonl', rateLimitPerMinute: 60, rateLimitBatchPerMinute: 600 });
    expect(config).toMatchObject({ defaultStateDir: '.candidate-lookup', logLevel: 'info' });
    expect(config.environments).toEqual([{ name: 'sandbox', label: 'Sandbox', upstream: { kind: 'sandbox' } }]);
  });

  it('LOG_FORMAT: unset leaves the choice to stdout, pretty or json is taken, anything else is refused', () => {
    expect(parseConfig({}).logFormat).toBeUndefined();
    expect(parseConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(parseConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(errorOf({ LOG_FORMAT: 'xml' })).toContain('LOG_FORMAT must be one of pretty, json');
  });

  it('reads a remote upstream, without the trailing slash', () => {
    const config = parseConfig({
      ...remote,
      PORT: '9000',
      HOST: '0.0.0.0',
      ALLOW_UNAUTHENTICATED: '1',
      KYC_TIMEOUT_MS: '5000',
      KYC_MAX_RESPONSE_BYTES: '2048',
    });
    expect(config.environments[0]!.upstream).toEqual({
      kind: 'remote',
      baseUrl: 'https://kyc.example.org',
      clientId: 'acme',
      apiKey: 'k-123',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 9000, timeoutMs: 5000, maxResponseBytes: 2048 });
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
    expect(errorOf({ KYC_TIMEOUT_MS: '1.5' })).toMatch(/KYC_TIMEOUT_MS must be a whole number/);
    expect(errorOf({ KYC_MAX_RESPONSE_BYTES: '-1' })).toMatch(/KYC_MAX_RESPONSE_BYTES must be at least/);
    expect(errorOf({ SANDBOX_LARGE_IMAGES: 'yes' })).toMatch(/SANDBOX_LARGE_IMAGES must be 1 or 0/);
    const message = errorOf({ ...remote, KYC_API_KEY: 'secret\r\nX: 1' });
    expect(message).toMatch(/KYC_API_KEY must be the key as issued/);
    expect(errorOf({ ...remote, KYC_API_KEY: 'key\u200bwith-zero-width-space' })).toMatch(/KYC_API_KEY must be the key as issued/);
    expect(message).not.toContain('secret');
  });

  it('refuses to listen beyond loopback with no sign-in, unless told to', () => {
    expect(errorOf({ HOST: '0.0.0.0' })).toMatch(
      /HOST=0\.0\.0\.0 would let anyone .* AUTH_USERS_FILE, AUTH_PROXY_USER_HEADER or OIDC_ISSUER, or ALLOW_UNAUTHENTICATED=1/s,
    );
    expect(parseConfig({ HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED: '1' }).auth).toEqual({ mode: 'local', allowUnauthenticated: true });
    expect(parseConfig({ HOST: '::1' }).host).toBe('::1');
    expect(parseConfig({ HOST: '0.0.0.0', AUTH_USERS_FILE: 'users.json' }).auth.mode).toBe('users');
  });

  it('reads the built-in users mode and the identity-aware proxy mode', () => {
    expect(parseConfig({ AUTH_USERS_FILE: 'u.json', SESSION_MAX_AGE_MINUTES: '120', SESSION_IDLE_MINUTES: '15' }).auth).toEqual({
      mode: 'users',
      usersFile: 'u.json',
      sessionMaxAgeMinutes: 120,
      sessionIdleMinutes: 15,
    });
    expect(
      parseConfig({
        AUTH_PROXY_USER_HEADER: 'X-Forwarded-User',
        AUTH_PROXY_ROLE_HEADER: 'X-Role',
        AUTH_PROXY_TRUSTED: '127.0.0.1, 10.0.0.0/8,::1',
      }).auth,
    ).toEqual({ mode: 'proxy', userHeader: 'x-forwarded-user', roleHeader: 'x-role', trusted: ['127.0.0.1', '10.0.0.0/8', '::1'] });
  });

  it('refuses a half-configured or contradictory sign-in, naming the variables', () => {
    expect(errorOf({ AUTH_PROXY_USER_HEADER: 'X-User' })).toMatch(/AUTH_PROXY_ROLE_HEADER and AUTH_PROXY_TRUSTED must be set/);
    expect(errorOf({ AUTH_USERS_FILE: 'u.json', AUTH_PROXY_USER_HEADER: 'X-User' })).toMatch(
      /AUTH_USERS_FILE and AUTH_PROXY_USER_HEADER are set together: choose one way to sign in/,
    );
    expect(errorOf({ ...oidc, AUTH_USERS_FILE: 'u.json' })).toMatch(/AUTH_USERS_FILE and OIDC_ISSUER, .* choose one way to sign in/);
    expect(errorOf({ AUTH_PROXY_USER_HEADER: 'X User', AUTH_PROXY_ROLE_HEADER: 'r', AUTH_PROXY_TRUSTED: '1.2.3.4' })).toMatch(
      /AUTH_PROXY_USER_HEADER must be an HTTP header name/,
    );
    expect(errorOf({ AUTH_PROXY_USER_HEADER: 'u', AUTH_PROXY_ROLE_HEADER: 'r', AUTH_PROXY_TRUSTED: '10.0.0.0/33' })).toMatch(
      /AUTH_PROXY_TRUSTED must be a comma-separated list/,
    );
    expect(errorOf({ KYC_API_KEY_STATUS: 'k' })).toMatch(/KYC_API_KEY_STATUS is set but KYC_BASE_URL is not/);
  });

  it('reads the OpenID Connect mode, with defaults for the claim, the scopes and the provider name', () => {
    const config = parseConfig({ ...oidc, HOST: '0.0.0.0', SESSION_IDLE_MINUTES: '20' });
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
        scopes: 'openid email profile',
        providerName: 'login.example.org',
      },
    });
    const custom = parseConfig({
      ...oidc,
      OIDC_ROLE_CLAIM: 'realm_access.roles',
      OIDC_SUPPORT_VALUES: 'support',
      OIDC_SCOPES: ' openid  email groups ',
      OIDC_PROVIDER_NAME: 'Okta',
    }).auth;
    expect(custom).toMatchObject({
      oidc: { roleClaim: 'realm_access.roles', supportValues: ['support'], scopes: 'openid email groups', providerName: 'Okta' },
    });
  });

  it('refuses a half-configured OpenID Connect sign-in, naming the variable, and never shows the secret', () => {
    const { OIDC_CLIENT_SECRET: _, ...noSecret } = oidc;
    expect(errorOf(noSecret)).toMatch(
      /OIDC_ISSUER and OIDC_CLIENT_ID and OIDC_REDIRECT_URL are set, so OIDC_CLIENT_SECRET must be set too/,
    );
    expect(errorOf({ OIDC_ISSUER: oidc.OIDC_ISSUER })).toMatch(
      /OIDC_ISSUER is set, so OIDC_CLIENT_ID and OIDC_CLIENT_SECRET and OIDC_REDIRECT_URL must be set too/,
    );
    const { OIDC_COMPLIANCE_VALUES: __, ...noRoles } = oidc;
    expect(errorOf(noRoles)).toMatch(/OIDC_COMPLIANCE_VALUES or OIDC_SUPPORT_VALUES must say which groups values give a role/);
    expect(errorOf({ ...oidc, OIDC_ISSUER: 'login.example.org' })).toMatch(/OIDC_ISSUER must be an https:\/\/ URL/);
    expect(errorOf({ ...oidc, OIDC_ISSUER: 'http://login.example.org' })).toMatch(/OIDC_ISSUER must use https:\/\//);
    expect(errorOf({ ...oidc, OIDC_REDIRECT_URL: 'https://lookup.example.org/callback' })).toMatch(
      /OIDC_REDIRECT_URL must be this server's address followed by \/api\/oidc\/callback/,
    );
    expect(errorOf({ ...oidc, OIDC_SCOPES: 'email profile' })).toMatch(/OIDC_SCOPES must be scopes separated by spaces, including openid/);
    expect(errorOf({ ...oidc, OIDC_COMPLIANCE_VALUES: ' , ' })).toMatch(/OIDC_COMPLIANCE_VALUES must list at least one value/);
    const message = errorOf({ ...oidc, OIDC_CLIENT_SECRET: 'the secret\n' });
    expect(message).toMatch(/OIDC_CLIENT_SECRET must be the secret as issued/);
    expect(message).not.toContain('the secret\n');
    // A provider on this machine (development, tests) may use plain http.
    expect(
      parseConfig({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:9000', OIDC_REDIRECT_URL: 'http://localhost:8080/api/oidc/callback' }).auth
        .mode,
    ).toBe('oidc');
  });

  it('reads REDIS_URL, and refuses anything but a redis:// or rediss:// URL', () => {
    expect(parseConfig({}).redisUrl).toBeUndefined();
    expect(parseConfig({ REDIS_URL: 'rediss://:pw@redis.internal:6380/1' }).redisUrl).toBe('rediss://:pw@redis.internal:6380/1');
    expect(errorOf({ REDIS_URL: 'http://redis.internal' })).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(errorOf({ REDIS_URL: 'redis.internal:6379' })).toMatch(/REDIS_URL must be/);
  });

  it('reads TRUSTED_PROXIES (with the identity-aware proxy in proxy mode), and refuses it with no sign-in', () => {
    expect(parseConfig({}).trustedProxies).toEqual([]);
    expect(parseConfig({ AUTH_USERS_FILE: 'u.json', TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    const proxy = { AUTH_PROXY_USER_HEADER: 'X-User', AUTH_PROXY_ROLE_HEADER: 'X-Role', AUTH_PROXY_TRUSTED: '10.1.0.0/16' };
    expect(parseConfig({ ...proxy, TRUSTED_PROXIES: '10.2.0.0/16' }).trustedProxies).toEqual(['10.2.0.0/16', '10.1.0.0/16']);
    expect(errorOf({ AUTH_USERS_FILE: 'u.json', TRUSTED_PROXIES: 'nginx' })).toMatch(/TRUSTED_PROXIES must be a comma-separated list/);
    expect(errorOf({ TRUSTED_PROXIES: '127.0.0.1' })).toMatch(
      /TRUSTED_PROXIES is set, but local mode answers this machine only, and no sign-in is configured/,
    );
    expect(parseConfig({ TRUSTED_PROXIES: '127.0.0.1', ALLOW_UNAUTHENTICATED: '1' }).trustedProxies).toEqual(['127.0.0.1']);
  });

  it('refuses plain http to another machine, unless told the connection is protected otherwise', () => {
    expect(errorOf({ ...remote, KYC_BASE_URL: 'http://kyc.example.org' })).toMatch(/http:\/\/ to another machine.*KYC_ALLOW_HTTP=1/s);
    expect(parseConfig({ ...remote, KYC_BASE_URL: 'http://kyc.example.org', KYC_ALLOW_HTTP: '1' }).environments[0]!.upstream.kind).toBe(
      'remote',
    );
    expect(parseConfig({ ...remote, KYC_BASE_URL: 'http://127.0.0.1:4010' }).environments[0]!.upstream.kind).toBe('remote');
  });

  it('reads the status key, the audit log path and the rate limit', () => {
    const config = parseConfig({ ...remote, KYC_API_KEY_STATUS: 's-1', AUDIT_LOG: '/var/log/cl.jsonl', RATE_LIMIT_PER_MINUTE: '0' });
    expect(config.environments[0]!.upstream).toMatchObject({ statusApiKey: 's-1' });
    expect(config).toMatchObject({ auditLog: '/var/log/cl.jsonl', rateLimitPerMinute: 0 });
  });

  it('reads what to do with a key that archives after extract: refuse unless told to accept', () => {
    expect(parseConfig({}).keyArchivesOnExtract).toBe('refuse');
    expect(parseConfig({ KYC_KEY_ARCHIVES_ON_EXTRACT: '' }).keyArchivesOnExtract).toBe('refuse');
    expect(parseConfig({ KYC_KEY_ARCHIVES_ON_EXTRACT: 'accept' }).keyArchivesOnExtract).toBe('accept');
    expect(errorOf({ KYC_KEY_ARCHIVES_ON_EXTRACT: 'yes' })).toMatch(/KYC_KEY_ARCHIVES_ON_EXTRACT must be "accept"/);
  });

  it('reads the decision summary fields and the privacy mask default, with defaults for both', () => {
    expect(parseConfig({}).display).toEqual({ summaryFields: [...DEFAULT_SUMMARY_FIELDS], privacyMaskDefault: false });
    expect(parseConfig({ SUMMARY_FIELDS: ' riskLevel , Case Owner,,', PRIVACY_MASK_DEFAULT: 'on' }).display).toEqual({
      summaryFields: ['riskLevel', 'Case Owner'],
      privacyMaskDefault: true,
    });
    expect(parseConfig({ PRIVACY_MASK_DEFAULT: 'off' }).display.privacyMaskDefault).toBe(false);
    expect(errorOf({ PRIVACY_MASK_DEFAULT: 'yes please' })).toMatch(/PRIVACY_MASK_DEFAULT must be on or off/);
    expect(errorOf({ SUMMARY_FIELDS: ' , ' })).toMatch(/SUMMARY_FIELDS must name at least one custom field/);
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
    });
    expect(config.port).toBe(7100);
    expect(loadConfig({}, os.tmpdir()).environments[0]!.upstream.kind).toBe('sandbox');
  });

  it('documents every variable the server reads: a row of docs/configuration.md and a line of .env.example each', () => {
    const root = path.join(import.meta.dirname, '../..');
    const checked = Object.keys(envSchema.shape);
    const reference = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    const rows = new Set([...reference.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((m) => m[1]));
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    const lines = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    expect(checked.filter((name) => !rows.has(name))).toEqual([]);
    expect(checked.filter((name) => !lines.has(name))).toEqual([]);
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
