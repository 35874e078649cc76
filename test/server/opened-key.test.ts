import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { as, gatewayInstance, postJson } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';

/**
 * The key under which Redis keeps what a user opened (`candidate-lookup:opened:<environment>:<hash>`,
 * opened-candidates.ts). Whoever can list Redis's keys (an operator, a backup) must not be able to tell
 * from them whether a given user looked a given candidate up; the instances sharing the Redis must still
 * find each other's entries. Each instance here runs on a sandbox whose keys are not the documented ones.
 */

const ANA = as('ana', 'compliance');
const KEYS = {
  full: 'full-key-of-this-service-only',
  identity: 'identity-key-of-this-service-only',
  status: 'status-key-of-this-service-only',
};
const OTHER_KEYS = {
  full: 'full-key-of-another-service',
  identity: 'identity-key-of-another-service',
  status: 'status-key-of-another-service',
};
const candidates = await sampleCandidates({ now: new Date(), pictures: false });
const amelie = candidates[0]!.record;

type RunningSandbox = Awaited<ReturnType<typeof startSandbox>>;
const sandboxes: RunningSandbox[] = [];
let redis: RunningRedis | undefined;
const instances: Instance[] = [];
beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  await redis?.restart();
});
afterAll(async () => {
  await redis?.stop();
});

/** An instance on Redis whose service (a sandbox of the same candidates) takes the keys given. */
async function instanceWith(keys: typeof KEYS): Promise<Instance> {
  const sandbox = await startSandbox({ candidates, keys });
  sandboxes.push(sandbox);
  const at = await gatewayInstance(sandbox, { REDIS_URL: redis!.url, KYC_API_KEY: keys.full, KYC_API_KEY_STATUS: keys.status });
  instances.push(at);
  return at;
}

async function openedKeys(): Promise<string[]> {
  const client = new Redis(redis!.url);
  try {
    return (await client.keys('candidate-lookup:opened:*')).sort();
  } finally {
    client.disconnect();
  }
}

const lookUp = async (at: Instance) =>
  expect((await at.request(`/api/candidates/refId/${amelie.refId}`, { headers: ANA })).status).toBe(200);

describe.skipIf(!hasRedisServer)(`the opened candidates' keys in Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('attack: the key of a lookup cannot be recomputed from the user, kind and id alone', async () => {
    await lookUp(await instanceWith(KEYS));
    const [key, ...more] = await openedKeys();
    expect(more).toEqual([]);
    expect(key).toMatch(/^candidate-lookup:opened:default:[0-9a-f]{64}$/);
    // The guess of someone who can list the keys: a SHA-256 of who and whom. Before, it was the very key.
    const guess = createHash('sha256')
      .update(JSON.stringify(['ana', 'refId', amelie.refId]))
      .digest('hex');
    expect(key).not.toContain(guess);
    // The same user, kind and id looked up where the service's key is another: another key in Redis. What
    // the key is made of beyond who and whom is a secret the server holds, not something to guess.
    await lookUp(await instanceWith(OTHER_KEYS));
    const both = await openedKeys();
    expect(both).toHaveLength(2);
    expect(both).toContain(key);
  });

  it('two instances sharing Redis and the API key agree: a lookup on one opens the candidate for an export on the other', async () => {
    const [one, two] = [await instanceWith(KEYS), await instanceWith(KEYS)];
    const summary = { what: 'summary', kind: 'refId', id: amelie.refId };
    expect((await postJson(two, '/api/export', summary, ANA)).status).toBe(409);
    await lookUp(one);
    expect((await postJson(two, '/api/export', summary, ANA)).status).toBe(200);
    expect(await openedKeys()).toHaveLength(1);
  });
});
