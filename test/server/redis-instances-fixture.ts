import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type PresenceCandidate, presenceRoomsSchema } from '../../src/kyc/contract/presence.ts';
import type { ConfigFile } from '../../src/server/config/file-schema.ts';
import { type SandboxCandidate, sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { openStream, type TestStream } from './event-source.ts';
import type { RawResponse } from './http.ts';
import { cookieFrom, type Instance, startInstance } from './instance.ts';
import { testPasswordHash } from './passwords.ts';
import { hasRedisServer, startRedis, type RunningRedis } from './redis-fixture.ts';

/**
 * What the tests of several instances on one real redis-server share (live-redis, presence-redis,
 * shared-state): a sandbox, the redis-server, a users file with a compliance user and a support user, and
 * instances that sign in from it. No hooks here (a helper module's own hook would run for the first file
 * of a worker only): a file calls sandboxAndRedis() for them.
 */

export const PASSWORDS = { ana: 'ana has a long password', sam: 'sam has a long password' };

export const signIn = (at: Instance, username: string, password: string): Promise<RawResponse> =>
  at.request('/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

/** The session cookie of `username` (of PASSWORDS), signed in on `at`. */
export async function sessionOf(at: Instance, username: keyof typeof PASSWORDS): Promise<string> {
  return cookieFrom(await signIn(at, username, PASSWORDS[username]), 'cl_session')!;
}

/** Tells `at`, as `cookie`'s page does, that its `stream` shows `candidate` in the default environment: the rooms it answers with. */
export async function announce(at: Instance, cookie: string, stream: TestStream, candidate: PresenceCandidate): Promise<string[]> {
  const announced = await at.request('/api/presence', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: stream.streamId(), environment: 'default', candidate }),
  });
  expect(announced.status).toBe(200);
  return presenceRoomsSchema.parse(JSON.parse(announced.body)).rooms;
}

/**
 * The sandbox (of `candidates`, the sample ones unless given) and, where its binary is, a redis-server,
 * started before the calling file's first test and stopped after its last, with ana (compliance) and sam
 * (support) in `dir`'s users file. The instances and streams a test opens through `instance` and `streamOn`
 * are closed after that test; one a test closes itself it takes out of `instances`.
 */
export function sandboxAndRedis(options: { candidates?: SandboxCandidate[] } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-redis-instances-'));
  const usersFile = path.join(dir, 'users.json');
  let sandbox: RunningSandbox;
  let redis: RunningRedis;
  const instances: Instance[] = [];
  const streams: TestStream[] = [];
  beforeAll(async () => {
    if (!hasRedisServer) return;
    const candidates = options.candidates ?? (await sampleCandidates({ now: new Date() }));
    [sandbox, redis] = await Promise.all([startSandbox({ candidates }), startRedis()]);
    const users = [
      { username: 'ana', passwordHash: await testPasswordHash(PASSWORDS.ana), role: 'compliance' },
      { username: 'sam', passwordHash: await testPasswordHash(PASSWORDS.sam), role: 'support' },
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

  /** An instance on the sandbox and `redisUrl` (the shared redis-server unless given), signing in from the users file unless `file` says otherwise. */
  async function instance(
    settings: { redisUrl?: string; file?: ConfigFile } & Omit<NonNullable<Parameters<typeof startInstance>[1]>, 'file'> = {},
  ): Promise<Instance> {
    const { redisUrl = redis.url, file, ...rest } = settings;
    const started = await startInstance(
      { KYC_BASE_URL: sandbox.url, KYC_CLIENT_ID: sandbox.clientId, KYC_API_KEY: SANDBOX_KEYS.full, REDIS_URL: redisUrl },
      { ...rest, file: { signIn: { mode: 'users', usersFile }, ...file } },
    );
    instances.push(started);
    return started;
  }

  /** The live stream of `cookie`'s user on `at`, opened. */
  async function streamOn(at: Instance, cookie: string): Promise<TestStream> {
    const stream = await openStream(at.port, { cookie });
    expect(stream.status).toBe(200);
    streams.push(stream);
    return stream;
  }

  return { dir, instances, instance, streamOn, redis: () => redis };
}
