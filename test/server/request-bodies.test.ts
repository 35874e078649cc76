import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PATHS } from '../../src/kyc/contract/audit-search.ts';
import { OIDC_START_API_PATH } from '../../src/kyc/contract/api-paths.ts';
import { PRESENCE_MAX_BODY_BYTES, PRESENCE_PATH } from '../../src/kyc/contract/presence-paths.ts';
import { WEBHOOK_MAX_BODY_BYTES } from '../../src/kyc/contract/live-events.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import { createLiveHub } from '../../src/server/live/create-live-hub.ts';
import { createAuditStore } from '../../src/server/trail/audit-store.ts';
import { APP_HEADERS, rawRequest, startTestApp, type TestApp, testEnvironment } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { testPasswordHash } from './passwords.ts';

/**
 * Every route that reads a request body reads it the same way (request-body.ts): over its limit `413
 * body_too_large` with a JSON error that reaches the client, however far past the limit the body goes;
 * not JSON `400 bad_request` with a sentence. Three apps, one per sign-in mode whose routes read bodies.
 */
const SECRET = 'whsec-bodies-0123456789';
const CLIENT_ID = 'acme_bodies';
const LEAD = { 'x-user': 'lena', 'x-role': 'lead' };
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-bodies-'));
const usersFile = path.join(dir, 'users.json');

let gateway: TestApp;
let users: TestApp;
let oidc: TestApp;

beforeAll(async () => {
  writeFileSync(
    usersFile,
    JSON.stringify({ users: [{ username: 'ana', passwordHash: await testPasswordHash('ana-pass'), role: 'lead' }] }),
  );
  const environment = testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, apiKey: 'k' });
  gateway = await startTestApp({
    // The sandbox's Simulate route exists where an environment can simulate; no body over its limit reaches it.
    environments: [{ ...environment, webhookSecret: SECRET, simulate: () => false }],
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    trail: createAuditStore({ file: path.join(dir, 'audit.jsonl'), instance: 'app1', retentionDays: 30 }),
    hub: createLiveHub(),
  });
  users = await startTestApp({
    upstream: { baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, apiKey: 'k' },
    access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
  });
  oidc = await startTestApp({
    upstream: { baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, apiKey: 'k' },
    audit: memoryAuditLog(),
    access: createAccessControl({
      mode: 'oidc',
      oidc: {
        // Never reached: every body here is refused before the provider is asked.
        issuer: 'http://127.0.0.1:9',
        clientId: 'c',
        clientSecret: 's',
        redirectUrl: 'http://127.0.0.1:9/api/oidc/callback',
        roleClaim: 'groups',
        complianceValues: ['kyc'],
        supportValues: [],
        leadValues: [],
        scopes: 'openid',
        providerName: 'Test IdP',
      },
      sessionMaxAgeMinutes: 60,
      sessionIdleMinutes: 60,
    }),
  });
});
afterAll(async () => {
  await Promise.all([gateway?.close(), users?.close(), oidc?.close()]);
});

interface BodyRoute {
  path: string;
  limit: number;
  app: () => TestApp;
  headers: Record<string, string>;
  /** The route's headers for this very body (a webhook's signature is over it). */
  signed?: boolean;
}

const ROUTES: BodyRoute[] = [
  { path: '/api/export', limit: 128 * 1024, app: () => gateway, headers: LEAD },
  { path: PRESENCE_PATH, limit: PRESENCE_MAX_BODY_BYTES, app: () => gateway, headers: LEAD },
  { path: '/api/batch', limit: 1024 * 1024, app: () => gateway, headers: LEAD },
  { path: AUDIT_PATHS.search, limit: 16 * 1024, app: () => gateway, headers: LEAD },
  { path: AUDIT_PATHS.export, limit: 16 * 1024, app: () => gateway, headers: LEAD },
  { path: '/api/activity', limit: 16 * 1024, app: () => gateway, headers: LEAD },
  { path: '/api/sandbox/simulate', limit: 4096, app: () => gateway, headers: LEAD },
  { path: '/webhooks/kyc', limit: WEBHOOK_MAX_BODY_BYTES, app: () => gateway, headers: {}, signed: true },
  { path: '/api/session', limit: 16 * 1024, app: () => users, headers: {} },
  { path: OIDC_START_API_PATH, limit: 4096, app: () => oidc, headers: {} },
];

/** A JSON object of exactly `size` bytes: one long string. */
const jsonOf = (size: number) => `{"pad":"${'x'.repeat(size - 10)}"}`;

function post(route: BodyRoute, body: string, headers: Record<string, string> = {}) {
  return rawRequest(route.app().port, route.path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...route.headers,
      ...(route.signed ? { 'x-hub-signature': signatureOf(body, SECRET) } : {}),
      ...headers,
    },
    body,
  });
}

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

describe('every route that reads a body', () => {
  it.each(ROUTES.map((route) => [route.path, route] as const))(
    '%s: a body over its limit is 413 body_too_large, said in JSON',
    async (_, route) => {
      const res = await post(route, jsonOf(route.limit + 1));
      expect(res.status).toBe(413);
      expect(errorOf(res.body)).toMatchObject({ code: 'body_too_large', message: expect.stringMatching(/\.$/) });
      expect(res.headers.connection).toBe('close');
    },
  );

  it.each(ROUTES.map((route) => [route.path, route] as const))(
    '%s: a body sent without its length that grows past the limit is 413 too',
    async (_, route) => {
      // Chunked: no Content-Length says it is too large; it is found so as it arrives.
      const res = await post(route, jsonOf(route.limit * 2), { 'transfer-encoding': 'chunked' });
      expect(res.status).toBe(413);
      expect(errorOf(res.body).code).toBe('body_too_large');
    },
  );

  it.each(ROUTES.filter((route) => !route.signed).map((route) => [route.path, route] as const))(
    '%s: a body that is not JSON is 400 bad_request with a sentence',
    async (_, route) => {
      const res = await post(route, '{"kind":');
      expect(res.status).toBe(400);
      expect(errorOf(res.body)).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/not valid JSON\.$/) });
    },
  );
});

interface Outcome {
  status?: number;
  body: string;
  error?: string;
}

/**
 * A POST whose body goes on far past any limit: `send` bytes written, as fast as the server takes them,
 * under a `Content-Length` of `declared` (none: chunked). The sender writes on after the answer came, as
 * a careless client does: the answer must reach it all the same.
 */
function flood(port: number, route: string, send: number, declared: number | undefined, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { body: '' };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: route,
        method: 'POST',
        headers: { ...APP_HEADERS, 'content-type': 'application/json', ...headers, ...(declared ? { 'content-length': declared } : {}) },
        agent: false,
      },
      (res) => {
        outcome.status = res.statusCode;
        res.setEncoding('utf8');
        res.on('data', (text: string) => (outcome.body += text));
        res.on('end', () => resolve(outcome));
        res.on('error', () => resolve(outcome));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      outcome.error = error.code;
      // A reset after the answer came is the connection closing behind it: what counts is the answer.
      if (outcome.status === undefined) resolve(outcome);
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < send) {
        const piece = chunk.subarray(0, Math.min(chunk.length, send - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      if (declared === undefined || sent >= declared) req.end();
    };
    write();
  });
}

/**
 * A webhook receiver of its own, auditing to a file as in production: the first refusal of a minute is
 * written there, and the 413 waits for that line while the body still pours in.
 */
async function webhookApp(): Promise<TestApp> {
  const environment = testEnvironment({ baseUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, apiKey: 'k' });
  return startTestApp({
    environments: [{ ...environment, webhookSecret: SECRET }],
    audit: createAuditLog(path.join(mkdtempSync(path.join(dir, 'hook-')), 'audit.jsonl')),
  });
}

describe('bodies far over their limit', () => {
  it.each([10 * 1024 * 1024, undefined])(
    'attack: a 10 MB webhook delivery (Content-Length %s) gets its 413 in JSON, not a reset; the receiver serves on',
    async (declared) => {
      const app = await webhookApp();
      try {
        const outcome = await flood(app.port, '/webhooks/kyc', 10 * 1024 * 1024, declared, { 'x-hub-signature': 'f'.repeat(64) });
        expect(outcome.status, outcome.error).toBe(413);
        expect(errorOf(outcome.body).code).toBe('body_too_large');
        const next = await rawRequest(app.port, '/webhooks/kyc', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature': 'f'.repeat(64) },
          body: '{}',
        });
        expect(errorOf(next.body).code).toBe('webhook_signature_invalid');
      } finally {
        await app.close();
      }
    },
  );

  it.each([
    ['/api/export', 50 * 1024 * 1024, 50 * 1024 * 1024],
    [PRESENCE_PATH, 50 * 1024 * 1024, 50 * 1024 * 1024],
    ['/api/export', 100 * 1024, 5 * 1024 * 1024],
    [PRESENCE_PATH, 100 * 1024, 5 * 1024 * 1024],
    ['/api/export', 50 * 1024 * 1024, undefined],
  ] as const)(
    'attack: %s sent %d bytes (Content-Length %s) gets its 413 in JSON, not a reset; the server serves on',
    async (route, send, declared) => {
      const outcome = await flood(gateway.port, route, send, declared, LEAD);
      expect(outcome.status, outcome.error).toBe(413);
      expect(errorOf(outcome.body).code).toBe('body_too_large');
      // The next request is answered as ever.
      const next = await rawRequest(gateway.port, PRESENCE_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...LEAD },
        body: '{',
      });
      expect(errorOf(next.body).code).toBe('bad_request');
    },
  );
});
