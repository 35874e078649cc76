import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { fileLines } from './audit-trail-helpers.ts';
import type { RawResponse } from './http.ts';
import type { Instance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import { sandboxAndRedis, sessionOf } from './redis-instances-fixture.ts';

/**
 * A print during an outage of the session store (Redis frozen, SIGSTOP): the browser prints whatever the
 * server answers, so the trail must still say whose data went on paper. In users mode the session is read
 * from Redis before any route, so before, the print was refused 503 and left no line at all. Now it is
 * written under the user this instance last resolved the session cookie to (a few minutes at most),
 * marked `openedUnknown` and `identityFromCache`; a cookie this instance never saw valid gets nothing.
 */
const candidates = await sampleCandidates({ now: new Date() });
const amelie = candidates[0]!.record;
const LOOKUP = `/api/candidates/refId/${amelie.refId}`;
const { instance, dir } = sandboxAndRedis({ candidates });

const on = (redis: RunningRedis) => instance({ redisUrl: redis.url, file: { limits: { lookupsPerMinute: 100 } } });
const errorCode = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error.code;
const exportOf = (at: Instance, cookie: string, body: Record<string, unknown>) =>
  at.request('/api/export', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const PRINT = { what: 'print', kind: 'refId', id: amelie.refId };
const COPY = { what: 'summary', kind: 'refId', id: amelie.refId };
/** The audit lines of hand-offs, and any other line naming the candidate. */
const naming = (at: Instance) =>
  fileLines(at.auditLog).filter((line) => line.kind === 'export' && JSON.stringify(line).includes(amelie.refId!));
const exportLines = (at: Instance) => fileLines(at.auditLog).filter((line) => line.kind === 'export');

/** Runs `during` with `redis` frozen, and lets it go on after, whatever happened. */
async function whilePaused<T>(redis: RunningRedis, during: () => Promise<T>): Promise<T> {
  redis.pause();
  try {
    return await during();
  } finally {
    redis.resume();
  }
}

describe.skipIf(!hasRedisServer)(`a print while the session store is down${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('a print while the session store is down is still written, under the user this instance last knew for the session', async () => {
    const own = await startRedis();
    try {
      const at = await on(own);
      const cookie = await sessionOf(at, 'ana');
      expect((await at.request(LOOKUP, { headers: { cookie } })).status).toBe(200);
      const [print, copy] = await whilePaused(own, async () => [await exportOf(at, cookie, PRINT), await exportOf(at, cookie, COPY)]);
      // Before, the print was refused 503 store_unavailable at the session check and left no line.
      expect([print!.status, JSON.parse(print!.body)]).toEqual([200, { status: 'success', openedUnknown: true }]);
      // A copy waits for its line, so it is still refused: nothing was copied.
      expect([copy!.status, errorCode(copy!)]).toEqual([503, 'store_unavailable']);
      expect(naming(at)).toEqual([
        expect.objectContaining({
          user: 'ana',
          role: 'compliance',
          what: 'print',
          lookupKind: 'refId',
          id: amelie.refId,
          openedUnknown: true,
          identityFromCache: true,
        }),
      ]);
      // The copy's refusal names no candidate (above) and says its user came from this instance's memory.
      expect(exportLines(at).filter((line) => 'status' in line)).toEqual([
        expect.objectContaining({ user: 'ana', what: 'summary', status: 503, code: 'store_unavailable', identityFromCache: true }),
      ]);
      // Redis back: the same session goes on, and its print is a plain one again.
      await expect.poll(async () => (await at.request(LOOKUP, { headers: { cookie } })).status, { timeout: 10_000 }).toBe(200);
      expect(JSON.parse((await exportOf(at, cookie, PRINT)).body)).toEqual({ status: 'success' });
      expect(naming(at).at(-1)).not.toHaveProperty('identityFromCache');
    } finally {
      await own.stop();
    }
  });

  it('attack: a forged session cookie, or one this instance never saw, writes no line while the store is down', async () => {
    const own = await startRedis();
    try {
      const [at, other] = await Promise.all([on(own), on(own)]);
      // A real session, but made and used on another instance only: this one never resolved it.
      const elsewhere = await sessionOf(other, 'ana');
      expect((await other.request(LOOKUP, { headers: { cookie: elsewhere } })).status).toBe(200);
      const forged = `cl_session=${randomBytes(32).toString('base64url')}`;
      const answers = await whilePaused(own, async () => [await exportOf(at, forged, PRINT), await exportOf(at, elsewhere, PRINT)]);
      for (const answer of answers) expect([answer.status, errorCode(answer)]).toEqual([503, 'store_unavailable']);
      expect(exportLines(at)).toEqual([]);
    } finally {
      await own.stop();
    }
  });

  it('attack: a session signed out on this instance writes no line while the store is down', async () => {
    const own = await startRedis();
    try {
      const at = await on(own);
      const cookie = await sessionOf(at, 'ana');
      expect((await at.request(LOOKUP, { headers: { cookie } })).status).toBe(200);
      expect((await at.request('/api/session', { method: 'DELETE', headers: { cookie } })).status).toBe(200);
      const print = await whilePaused(own, () => exportOf(at, cookie, PRINT));
      expect([print.status, errorCode(print)]).toEqual([503, 'store_unavailable']);
      expect(exportLines(at)).toEqual([]);
    } finally {
      await own.stop();
    }
  });

  it('attack: a user removed from the users file since writes no line under the session this instance remembers', async () => {
    const own = await startRedis();
    const usersFile = path.join(dir, 'users.json');
    const users = readFileSync(usersFile, 'utf8');
    try {
      const at = await on(own);
      const cookie = await sessionOf(at, 'sam');
      expect((await at.request(LOOKUP, { headers: { cookie } })).status).toBe(200);
      const { users: listed } = JSON.parse(users) as { users: Array<{ username: string }> };
      writeFileSync(usersFile, JSON.stringify({ users: listed.filter((user) => user.username !== 'sam') }));
      // The users file is this instance's own, read without Redis: the removal holds while Redis is away.
      const print = await whilePaused(own, () => exportOf(at, cookie, PRINT));
      expect([print.status, errorCode(print)]).toEqual([503, 'store_unavailable']);
      expect(exportLines(at)).toEqual([]);
    } finally {
      writeFileSync(usersFile, users);
      await own.stop();
    }
  });
});
