import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { testPasswordHash } from './passwords.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { type RunningSandbox, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { resolveUpstream } from '../../src/server/composition/resolve-upstream.ts';
import { ndjson, rawRequest, requestWithBody, startTestApp, testEnvironment, type TestApp } from './http.ts';

/** Two environments, each a sandbox with its own client id and keys: "prod" holds every sample, "staging" two. */
const candidates = await sampleCandidates({ now: new Date() });
const onlyInProd = candidates[5]!.record.refId!;
const inBoth = candidates[0]!.record.refId!;
const KEYS = {
  prod: { status: 'prod-status-KEY', identity: 'prod-identity-KEY', full: 'prod-full-KEY' },
  staging: { status: 'staging-status-KEY', identity: 'staging-identity-KEY', full: 'staging-full-KEY' },
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-env-api-'));
const auditFile = path.join(dir, 'audit.jsonl');
const usersFile = path.join(dir, 'users.json');
const readAudit = () =>
  readFileSync(auditFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

let prod: RunningSandbox;
let staging: RunningSandbox;
let app: TestApp;
beforeAll(async () => {
  prod = await startSandbox({ candidates, clientId: 'acme_kyc', keys: KEYS.prod });
  staging = await startSandbox({ candidates: candidates.slice(0, 2), clientId: 'acme_test', keys: KEYS.staging });
  writeFileSync(
    usersFile,
    JSON.stringify({
      users: [
        { username: 'ana', passwordHash: await testPasswordHash('ana-pass'), role: 'compliance' },
        { username: 'tess', passwordHash: await testPasswordHash('tess-pass'), role: 'compliance', environments: ['staging'] },
      ],
    }),
  );
  app = await startTestApp({
    environments: [
      testEnvironment(
        { baseUrl: prod.url, clientId: 'acme_kyc', apiKey: KEYS.prod.full, statusApiKey: KEYS.prod.status },
        { name: 'prod', label: 'Production', dashboardUrl: 'https://console.example.org/kyc/{recordId}' },
      ),
      testEnvironment({ baseUrl: staging.url, clientId: 'acme_test', apiKey: KEYS.staging.full }, { name: 'staging', label: 'Staging' }),
    ],
    access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
    audit: createAuditLog(auditFile),
  });
});
afterAll(async () => {
  await app.close();
  await prod.close();
  await staging.close();
});

async function cookieFor(username: string, password: string): Promise<string> {
  const res = await requestWithBody(app.port, '/api/session', JSON.stringify({ username, password }));
  expect(res.status).toBe(200);
  return String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
}

const everyKey = [...Object.values(KEYS.prod), ...Object.values(KEYS.staging)];

describe('environments in the API', () => {
  it('describes the environment of the URL and the ones the user may use, never a key or an address', async () => {
    const cookie = await cookieFor('ana', 'ana-pass');
    const first = await rawRequest(app.port, '/api/meta', { headers: { cookie } });
    const second = await rawRequest(app.port, '/api/e/staging/meta', { headers: { cookie } });
    const meta = apiMetaSchema.parse(JSON.parse(first.body));
    expect(meta.environment).toEqual({
      name: 'prod',
      label: 'Production',
      clientId: 'acme_kyc',
      upstream: 'remote',
      dashboardUrl: 'https://console.example.org/kyc/{recordId}',
      live: false,
    });
    expect(meta.allowed).toBe(true);
    expect(meta.environments.map((e) => e.name)).toEqual(['prod', 'staging']);
    expect(apiMetaSchema.parse(JSON.parse(second.body)).environment).toMatchObject({
      name: 'staging',
      label: 'Staging',
      clientId: 'acme_test',
    });
    for (const res of [first, second]) {
      for (const secret of [...everyKey, prod.url, staging.url, String(new URL(prod.url).port)]) expect(res.body).not.toContain(secret);
    }
  });

  it('looks up in the environment of the URL, the unprefixed form meaning the first, and audits the environment', async () => {
    const cookie = await cookieFor('ana', 'ana-pass');
    const get = (p: string) => rawRequest(app.port, p, { headers: { cookie } });
    expect((await get(`/api/candidates/refId/${onlyInProd}`)).status).toBe(200);
    expect((await get(`/api/e/prod/candidates/refId/${onlyInProd}`)).status).toBe(200);
    expect((await get(`/api/e/staging/candidates/refId/${onlyInProd}`)).status).toBe(404);
    const inStaging = await get(`/api/e/staging/candidates/refId/${inBoth}`);
    expect(inStaging.status).toBe(200);
    for (const secret of everyKey) expect(inStaging.body + JSON.stringify(inStaging.headers)).not.toContain(secret);
    const status = await get(`/api/e/staging/status/refId/${inBoth}`);
    expect(Object.keys(JSON.parse(status.body).data)).not.toContain('identities');

    // Each lookup's line (a full answer's closing line, what it held, left out: held-audit.test.ts).
    const lines = readAudit().filter((l) => l.user === 'ana' && (l.id === onlyInProd || l.id === inBoth) && l.held === undefined);
    expect(lines.map((l) => [l.env, l.id, l.status, l.level])).toEqual([
      ['prod', onlyInProd, 200, 'full'],
      ['prod', onlyInProd, 200, 'full'],
      ['staging', onlyInProd, 404, 'full'],
      ['staging', inBoth, 200, 'full'],
      ['staging', inBoth, 200, 'stripped'],
    ]);
  });

  it('refuses an unknown environment, and audits the refusal', async () => {
    const cookie = await cookieFor('ana', 'ana-pass');
    const res = await rawRequest(app.port, `/api/e/qa/candidates/refId/${inBoth}`, { headers: { cookie } });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).error.code).toBe('no_such_environment');
    expect(readAudit().at(-1)).toMatchObject({ user: 'ana', env: 'qa', id: inBoth, status: 404, code: 'no_such_environment' });
  });

  it('limits a user of the users file to their environments', async () => {
    const cookie = await cookieFor('tess', 'tess-pass');
    const get = (p: string) => rawRequest(app.port, p, { headers: { cookie } });
    const metaBody = (await get('/api/meta')).body;
    const meta = apiMetaSchema.parse(JSON.parse(metaBody));
    expect(meta).toMatchObject({ allowed: false, environment: { name: 'prod' } });
    expect(meta.environments.map((e) => e.name)).toEqual(['staging']);
    const refused = await get(`/api/candidates/refId/${inBoth}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error).toMatchObject({
      code: 'environment_forbidden',
      message: 'Your account may not use the environment "prod".',
    });
    expect(readAudit().at(-1)).toMatchObject({ user: 'tess', env: 'prod', status: 403, code: 'environment_forbidden' });
    expect((await get(`/api/e/staging/candidates/refId/${inBoth}`)).status).toBe(200);
    const batch = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: [inBoth] }), { headers: { cookie } });
    expect(batch.status).toBe(403);
    expect(readAudit().at(-1)).toMatchObject({ user: 'tess', env: 'prod', kind: 'batch', status: 403, code: 'environment_forbidden' });
    const allowedBatch = await requestWithBody(app.port, '/api/e/staging/batch', JSON.stringify({ kind: 'refId', ids: [inBoth] }), {
      headers: { cookie },
    });
    expect(ndjson(allowedBatch.body).at(-1)).toEqual({ type: 'done', found: 1, failed: 0 });
  });
});

describe('an environment the user may not use', () => {
  it('is named in /api/meta by its name alone: never its label, client id or dashboard', async () => {
    const cookie = await cookieFor('tess', 'tess-pass');
    const get = (p: string) => rawRequest(app.port, p, { headers: { cookie } });
    for (const path of ['/api/meta', '/api/e/prod/meta']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const meta = apiMetaSchema.parse(JSON.parse(res.body));
      expect(meta.allowed).toBe(false);
      expect(meta.environment).toEqual({ name: 'prod', label: 'prod', upstream: 'remote', live: false });
      for (const secret of ['Production', 'acme_kyc', 'console.example.org', ...everyKey, prod.url]) expect(res.body).not.toContain(secret);
      // What they may use is described in full.
      expect(meta.environments).toEqual([{ name: 'staging', label: 'Staging', clientId: 'acme_test', upstream: 'remote', live: false }]);
    }
    const refused = await get(`/api/e/prod/candidates/refId/${inBoth}`);
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain('Production');
    const allowed = apiMetaSchema.parse(JSON.parse((await get('/api/e/staging/meta')).body));
    expect(allowed.environment).toMatchObject({ name: 'staging', label: 'Staging', clientId: 'acme_test' });
  });
});

describe('environments from the configuration', () => {
  it("links a Blockpass service's candidates to its console by default; an environment's dashboardUrl wins, the sandbox gets its page", async () => {
    const environments = [
      { name: 'prod', label: 'Production', baseUrl: 'https://kyc.blockpass.org', clientId: 'acme_kyc', apiKeyEnv: 'KEY' },
      {
        name: 'own',
        label: 'Own console',
        baseUrl: 'https://kyc.blockpass.org',
        clientId: 'acme_kyc',
        apiKeyEnv: 'KEY',
        dashboardUrl: 'https://console.example.org/kyc/{recordId}',
      },
      { name: 'other', label: 'Other', baseUrl: 'https://kyc.example.com', clientId: 'acme_kyc', apiKeyEnv: 'KEY' },
    ];
    const remote = await resolveUpstream(parseConfig({ KEY: 'k', AUDIT_LOG: path.join(dir, 'bp-audit.jsonl') }, { environments }));
    expect(remote.environments.map((e) => e.info.dashboardUrl)).toEqual([
      'https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/{recordId}',
      'https://console.example.org/kyc/{recordId}',
      undefined,
    ]);
    const sandbox = await resolveUpstream(parseConfig({ AUDIT_LOG: path.join(dir, 'sandbox-audit.jsonl') }));
    try {
      expect(sandbox.environments[0]!.info.dashboardUrl).toBe('/sandbox-dashboard/{recordId}');
    } finally {
      await sandbox.close();
    }
  });

  it("serves every environment of CONFIG_FILE's file, and names at start a user limited to one that does not exist", async () => {
    const file = path.join(dir, 'environments.json');
    const environments = [
      { name: 'prod', label: 'Production', baseUrl: prod.url, clientId: 'acme_kyc', apiKeyEnv: 'PROD_KEY' },
      { name: 'staging', label: 'Staging', baseUrl: staging.url, clientId: 'acme_test', apiKeyEnv: 'STAGING_KEY' },
    ];
    writeFileSync(file, JSON.stringify({ environments }));
    const keys = { PROD_KEY: KEYS.prod.full, STAGING_KEY: KEYS.staging.full };
    const config = parseConfig({ ...keys, CONFIG_FILE: file, AUDIT_LOG: path.join(dir, 'config-audit.jsonl') });
    const upstream = await resolveUpstream(config);
    expect(upstream.environments.map((e) => e.info)).toEqual([
      { name: 'prod', label: 'Production', clientId: 'acme_kyc', upstream: 'remote' },
      { name: 'staging', label: 'Staging', clientId: 'acme_test', upstream: 'remote' },
    ]);
    expect(() => createApiFromConfig(config, upstream, { queueCrawl: { start: false } })).not.toThrow();

    const badUsers = path.join(dir, 'bad-users.json');
    writeFileSync(
      badUsers,
      JSON.stringify({
        users: [
          {
            username: 'x',
            passwordHash: JSON.parse(readFileSync(usersFile, 'utf8')).users[0].passwordHash,
            role: 'support',
            environments: ['prd'],
          },
        ],
      }),
    );
    const withUsers = parseConfig(keys, { environments, signIn: { mode: 'users', usersFile: badUsers } });
    expect(() => createApiFromConfig(withUsers, upstream)).toThrow(/user "x" may use environment "prd", which this server does not have/);
  });
});
