import { writeFile } from 'node:fs/promises';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords.ts';
import { createSignInFailures } from '../../src/server/auth/sign-in-failures.ts';
import { SignInGuard } from '../../src/server/auth/sign-in-guard.ts';
import { DEFAULT_QUEUE_LIMITS } from '../../src/server/auth/sign-in-queue.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { signIn, startTestApp } from './http.ts';
import { testPasswordHash } from './passwords.ts';
import { errorOf } from './service-app.ts';

/**
 * An attacker holding an IPv6 /64 (one host's share) rotating through its addresses, behind a reverse proxy in
 * TRUSTED_PROXIES that reports each in X-Forwarded-For: one client, as one IPv4 address is (red team).
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-rotation-'));

/** The i-th address of 2001:db8:1:2::/64, each new. */
const rotating = (i: number) => `2001:db8:1:2:${((i * 7919) % 65_536).toString(16)}:${i.toString(16)}:9:${(i + 1).toString(16)}`;
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('wrong sign-ins from rotating addresses of one IPv6 /64', () => {
  it('attack: wrong passwords from rotating addresses of one IPv6 /64 are counted as one client: locked after 50, a colleague signs in at once', async () => {
    // Users who exist (a name that does not costs a full-price scrypt check, as it should): one wrong guess each.
    const names = Array.from({ length: 56 }, (_, i) => `u${i}`);
    const hash = await testPasswordHash('a password of theirs');
    const users = [
      ...names.map((username) => ({ username, passwordHash: hash, role: 'support' })),
      { username: 'ana', passwordHash: await testPasswordHash('ana password ok'), role: 'compliance' },
    ];
    const usersFile = path.join(dir, 'users.json');
    writeFileSync(usersFile, JSON.stringify({ users }));
    const upstream = await startFakeUpstream();
    const access = createAccessControl(
      { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 10 },
      { signInDelayMs: 0 },
    );
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access,
      settings: { trustedProxies: ['127.0.0.1/32'] },
    });
    cleanups.push(app.close, upstream.close);

    const statuses: number[] = [];
    for (const [i, name] of names.entries()) statuses.push((await signIn(app.port, name, 'a wrong guess', from(rotating(i)))).status);
    expect(statuses).toEqual([...Array(50).fill(401), ...Array(6).fill(429)]);
    // The whole /64 is locked for 15 minutes, a right password too, from an address it has not used yet.
    const locked = await signIn(app.port, 'ana', 'ana password ok', from('2001:db8:1:2::ada'));
    expect(locked.status).toBe(429);
    expect(errorOf(locked).code).toBe('too_many_sign_in_attempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // A colleague elsewhere, over IPv4 or another /64, is not.
    expect((await signIn(app.port, 'ana', 'ana password ok', from('198.51.100.7'))).status).toBe(200);
    expect((await signIn(app.port, 'ana', 'ana password ok', from('2001:db8:1:3::ada'))).status).toBe(200);
  });

  it('attack: a flood of wrong passwords leaves libuv threads for the audit log: a file write started during it ends before any scrypt check', async () => {
    // libuv's four threads (UV_THREADPOOL_SIZE is never set): checks at once leave some to the file calls.
    expect(DEFAULT_QUEUE_LIMITS.all).toBeLessThan(4);
    // Production's cost (N = 2^15, about 100 ms a check): the threads must be really held.
    const hash = await hashPassword('the right one');
    const guard = new SignInGuard({ failures: createSignInFailures(createMemoryStore()), baseDelayMs: 0 });
    const ended: string[] = [];
    let begun = 0;
    let allBegun = () => {};
    const checksBegun = new Promise<void>((resolve) => (allBegun = resolve));
    // Twelve clients at once (each its own IPv4 address): only the limit of all holds them back.
    const flood = Array.from({ length: 12 }, (_, i) =>
      guard.attempt(`u${i}`, `203.0.113.${i + 1}`, async () => {
        begun += 1;
        if (begun === DEFAULT_QUEUE_LIMITS.all) allBegun();
        const valid = await verifyPassword('a wrong guess', hash);
        ended.push('check');
        return valid ? 'in' : undefined;
      }),
    );
    await checksBegun;
    // An audit line as audit.ts writes it: through libuv's threads, as every file call.
    await writeFile(path.join(dir, 'audit.jsonl'), '{"kind":"lookup"}\n', { flag: 'a' });
    ended.push('write');
    await Promise.all(flood);
    expect(ended[0]).toBe('write');
    expect(ended.filter((one) => one === 'check')).toHaveLength(12);
  });
});

describe("local mode's per-address lookup limit behind a reverse proxy", () => {
  it('attack: lookups from rotating addresses of one IPv6 /64 share one limit, another /64 has its own', async () => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: createAccessControl({ mode: 'local', allowUnauthenticated: true }),
      settings: { trustedProxies: ['127.0.0.1/32'], limits: { lookupsPerMinute: 2 } },
    });
    cleanups.push(app.close, upstream.close);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.get(`/api/candidates/refId/r${i}`, from(rotating(i)))).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await app.get('/api/candidates/refId/other', from('2001:db8:1:3::1'))).status).toBe(200);
    expect((await app.get('/api/candidates/refId/v4', from('198.51.100.7'))).status).toBe(200);
  });
});
