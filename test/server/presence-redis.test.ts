import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { presenceRoomsSchema } from '../../src/kyc/contract/presence.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { openStream, type TestStream } from './event-source.ts';
import { cookieFrom, type Instance, startInstance } from './instance.ts';
import { testPasswordHash } from './passwords.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedis, type RunningRedis } from './redis-fixture.ts';

/**
 * Presence between two instances on one real redis-server, read as someone with SUBSCRIBE on that Redis
 * reads it: the user names go by, and must not go beside the ids of the candidates they look at.
 */
const CANDIDATE = { refId: 'cust_000482', recordId: '65f1c2a9e4b0d3a1f0c9b802' };
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-presence-redis-'));
const usersFile = path.join(dir, 'users.json');
let sandbox: RunningSandbox;
let redis: RunningRedis;
const instances: Instance[] = [];
const streams: TestStream[] = [];

beforeAll(async () => {
  if (!hasRedisServer) return;
  [sandbox, redis] = await Promise.all([startSandbox({ candidates: await sampleCandidates({ now: new Date() }) }), startRedis()]);
  const users = [
    { username: 'ana', passwordHash: await testPasswordHash('ana has a long password'), role: 'compliance' },
    { username: 'sam', passwordHash: await testPasswordHash('sam has a long password'), role: 'support' },
  ];
  writeFileSync(usersFile, JSON.stringify({ users }));
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(instances.splice(0).map((instance) => instance.close()));
});
afterAll(async () => {
  await redis?.stop();
  await sandbox?.close();
});

async function instance(): Promise<Instance> {
  const started = await startInstance(
    { KYC_BASE_URL: sandbox.url, KYC_CLIENT_ID: sandbox.clientId, KYC_API_KEY: SANDBOX_KEYS.full, REDIS_URL: redis.url },
    { file: { signIn: { mode: 'users', usersFile } } },
  );
  instances.push(started);
  return started;
}

async function signIn(at: Instance, username: string): Promise<string> {
  const res = await at.request('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `${username} has a long password` }),
  });
  return cookieFrom(res, 'cl_session')!;
}

async function streamOn(at: Instance, cookie: string): Promise<TestStream> {
  const stream = await openStream(at.port, { cookie });
  expect(stream.status).toBe(200);
  streams.push(stream);
  await stream.until(() => stream.streamId() !== undefined);
  return stream;
}

describe.skipIf(!hasRedisServer)(`presence on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('attack: whoever subscribes to the presence channel during a lookup reads who, never which candidate, and the viewer is still seen across instances', async () => {
    const [one, two] = [await instance(), await instance()];
    const listener = new Redis(redis.url);
    const heard: string[] = [];
    try {
      listener.on('message', (_channel: string, message: string) => heard.push(message));
      await listener.subscribe('candidate-lookup:presence');
      const [ana, sam] = [await signIn(one, 'ana'), await signIn(two, 'sam')];
      const [anaStream, samStream] = [await streamOn(one, ana), await streamOn(two, sam)];
      await Promise.all([one.hub.ready?.(), two.hub.ready?.()]);

      // Ana opens the candidate as her page does: the lookup, then the announcement of both its ids.
      const lookup = await one.request(`/api/candidates/refId/${CANDIDATE.refId}`, { headers: { cookie: ana } });
      expect(lookup.status).toBe(200);
      expect(lookup.body).toContain(CANDIDATE.recordId);
      const announced = await one.request('/api/presence', {
        method: 'POST',
        headers: { cookie: ana, 'content-type': 'application/json' },
        body: JSON.stringify({ stream: anaStream.streamId(), environment: 'default', candidate: CANDIDATE }),
      });
      expect(announced.status).toBe(200);
      const { rooms } = presenceRoomsSchema.parse(JSON.parse(announced.body));

      // Sam, on the other instance, sees her on that candidate: his page holds the same rooms for it.
      await samStream.until(() => samStream.viewers()?.length === 1);
      expect(samStream.viewers()).toEqual([{ user: 'ana', environment: 'default', rooms }]);
      anaStream.close();
      await samStream.until(() => samStream.viewers()?.length === 0);

      // The channel carried Ana's name (colleagues are shown it), and nothing that names the candidate.
      expect(heard.some((message) => message.includes('"here"') && message.includes('"ana"'))).toBe(true);
      for (const message of heard) {
        expect(message).not.toContain(CANDIDATE.refId);
        expect(message).not.toContain(CANDIDATE.recordId);
      }
    } finally {
      listener.disconnect();
    }
  });
});
