import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import type { RawResponse } from './http.ts';
import { cookieFrom, type Instance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedis } from './redis-fixture.ts';
import { PASSWORDS, sandboxAndRedis, signIn } from './redis-instances-fixture.ts';

/**
 * Several instances of the server on one real redis-server, as behind a load balancer: sessions, sign-in
 * locks and rate limits are shared, survive a restart, and Redis going away fails closed and recovers.
 */
const candidates = await sampleCandidates({ now: new Date() });
const amelie = candidates[0]!.record;
const LOOKUP = `/api/candidates/refId/${amelie.refId}`;
const { instance: instanceOn, instances, redis } = sandboxAndRedis({ candidates });

/** An instance on `redisUrl`, with built-in users and no rate limit unless `file` says otherwise. */
const instance = (redisUrl?: string, file: ConfigFile = {}): Promise<Instance> =>
  instanceOn({ redisUrl, file: { limits: { lookupsPerMinute: 0 }, ...file } });

const errorCode = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error.code;
/** A fresh Redis per test keeps the tests apart: the instances here share one by design. */
const flush = async () => {
  await redis().restart();
};

describe.skipIf(!hasRedisServer)(`several instances on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('knows a session made on one instance on the other, until signed out on either', async () => {
    await flush();
    const [one, two] = await Promise.all([instance(), instance()]);
    const res = await signIn(one, 'ana', PASSWORDS.ana);
    expect(res.status).toBe(200);
    const cookie = cookieFrom(res, 'cl_session')!;
    expect(JSON.parse((await two.request('/api/session', { headers: { cookie } })).body)).toEqual({
      mode: 'users',
      user: 'ana',
      role: 'compliance',
    });
    const lookup = await two.request(LOOKUP, { headers: { cookie } });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toContain(amelie.identities!.email!.value);
    expect((await two.request('/api/session', { method: 'DELETE', headers: { cookie } })).status).toBe(200);
    expect((await one.request(LOOKUP, { headers: { cookie } })).status).toBe(401);
  });

  it('counts the rate limit over every instance', async () => {
    await flush();
    const [one, two] = await Promise.all([
      instance(undefined, { limits: { lookupsPerMinute: 3 } }),
      instance(undefined, { limits: { lookupsPerMinute: 3 } }),
    ]);
    const cookie = cookieFrom(await signIn(one, 'ana', PASSWORDS.ana), 'cl_session')!;
    const statuses = [];
    for (const at of [one, two, one, two]) statuses.push((await at.request(LOOKUP, { headers: { cookie } })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await one.request(LOOKUP, { headers: { cookie } });
    expect(errorCode(refused)).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
  });

  it('locks a username on every instance after ten failures spread over them', async () => {
    await flush();
    const [one, two] = await Promise.all([instance(), instance()]);
    for (let i = 0; i < 10; i++) expect((await signIn(i % 2 ? one : two, 'sam', `wrong password ${i}`)).status).toBe(401);
    for (const at of [one, two]) {
      const locked = await signIn(at, 'sam', PASSWORDS.sam);
      expect(locked.status).toBe(429);
      expect(errorCode(locked)).toBe('too_many_sign_in_attempts');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    }
    expect((await signIn(two, 'ana', PASSWORDS.ana)).status).toBe(200);
  });

  it('checks no more than ten guesses when they arrive at once on four instances', async () => {
    await flush();
    const all = await Promise.all([instance(), instance(), instance(), instance()]);
    for (let i = 0; i < 9; i++) expect((await signIn(all[i % 4]!, 'sam', `wrong password ${i}`)).status).toBe(401);
    // Each instance checks one guess per username at a time; together they must not check four when one is left.
    const burst = await Promise.all(all.map((at, i) => signIn(at, 'sam', `parallel guess ${i}`)));
    const statuses = burst.map((res) => res.status).sort();
    expect(statuses).toEqual([401, 429, 429, 429]);
    for (const res of burst.filter((r) => r.status === 429)) expect(errorCode(res)).toBe('too_many_sign_in_attempts');
    expect((await signIn(all[0]!, 'sam', PASSWORDS.sam)).status).toBe(429);
  });

  it('keeps sessions across a restart of the server', async () => {
    await flush();
    const first = await instance();
    const cookie = cookieFrom(await signIn(first, 'sam', PASSWORDS.sam), 'cl_session')!;
    await first.close();
    instances.splice(instances.indexOf(first), 1);
    const restarted = await instance();
    expect(JSON.parse((await restarted.request('/api/session', { headers: { cookie } })).body)).toMatchObject({
      user: 'sam',
      role: 'support',
    });
    expect((await restarted.request(LOOKUP, { headers: { cookie } })).status).toBe(200);
  });
});

describe.skipIf(!hasRedisServer)(`Redis going away${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('fails sign-in and lookups closed while Redis is down, serves static files, and recovers by itself', async () => {
    const own = await startRedis();
    const at = await instance(own.url);
    const cookie = cookieFrom(await signIn(at, 'ana', PASSWORDS.ana), 'cl_session')!;
    expect((await at.request(LOOKUP, { headers: { cookie } })).status).toBe(200);

    await own.kill();
    for (const res of [
      await at.request(LOOKUP, { headers: { cookie } }),
      await at.request('/api/session', { headers: { cookie } }),
      await signIn(at, 'ana', PASSWORDS.ana),
    ]) {
      expect(res.status).toBe(503);
      expect(errorCode(res)).toBe('store_unavailable');
      expect(res.headers['retry-after']).toBe('5');
    }
    expect((await at.request('/favicon.svg')).status).toBe(200);
    expect((await at.request('/healthz')).status).toBe(200);
    await expect
      .poll(async () => {
        const ready = await at.request('/readyz');
        return [ready.status, JSON.parse(ready.body).checks?.redis];
      })
      .toEqual([503, { ok: false, problem: 'not reachable' }]);
    expect(at.logs.some((line) => /Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/.test(line))).toBe(true);

    // Back, but empty (no persistence): the old session is gone, a new sign-in works.
    await own.restart();
    await expect.poll(async () => (await at.request('/api/session', { headers: { cookie } })).status, { timeout: 10_000 }).toBe(200);
    expect(at.logs.some((line) => line.includes('is reachable again'))).toBe(true);
    await expect.poll(async () => (await at.request('/readyz')).status, { timeout: 10_000 }).toBe(200);
    expect((await at.request(LOOKUP, { headers: { cookie } })).status).toBe(401);
    const again = cookieFrom(await signIn(at, 'ana', PASSWORDS.ana), 'cl_session')!;
    expect((await at.request(LOOKUP, { headers: { cookie: again } })).status).toBe(200);
    await own.stop();
  });

  it('answers 503 rather than hanging while Redis does not answer, and goes on with the same sessions after', async () => {
    const own = await startRedis();
    const at = await instance(own.url, { limits: { lookupsPerMinute: 100 } });
    const cookie = cookieFrom(await signIn(at, 'sam', PASSWORDS.sam), 'cl_session')!;
    own.pause();
    try {
      const res = await at.request(LOOKUP, { headers: { cookie } });
      expect(res.status).toBe(503);
      expect(errorCode(res)).toBe('store_unavailable');
    } finally {
      own.resume();
    }
    await expect.poll(async () => (await at.request(LOOKUP, { headers: { cookie } })).status, { timeout: 10_000 }).toBe(200);
    await own.stop();
  });

  it('records a lookup refused for want of Redis in the audit log', async () => {
    const own = await startRedis();
    const at = await instance(own.url, {
      limits: { lookupsPerMinute: 100 },
      signIn: { mode: 'local', allowUnauthenticated: true },
    });
    await own.kill();
    const res = await at.request(LOOKUP);
    expect(res.status).toBe(503);
    const lines = readFileSync(at.auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ user: 'local', status: 503, code: 'store_unavailable', upstreamStatus: null });
    await own.stop();
  });
});
