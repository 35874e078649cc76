import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createLiveHub } from '../../src/server/live/create-live-hub.ts';
import type { PresenceOptions } from '../../src/server/live/presence.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { openStream, type TestStream } from './event-source.ts';
import { rawRequest, startTestApp, testEnvironment } from './http.ts';
import { testPasswordHash } from './passwords.ts';

/** A built-in user of a presence test: their password is their name and `-pass`. */
export interface PresenceUser {
  username: string;
  role: 'compliance' | 'support';
  environments?: string[];
}

/**
 * The app the presence tests talk to (presence, presence-flood): built-in users, live updates, and the
 * presence options the test gives, in front of a sandbox named by each of `environments`. Started as
 * the file loads; its streams, app and sandbox closed after the file's last test.
 */
export async function startPresenceApp(users: PresenceUser[], environments: string[], presence: PresenceOptions) {
  const usersFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-presence-')), 'users.json');
  const hashed = await Promise.all(users.map(async (user) => ({ ...user, passwordHash: await testPasswordHash(`${user.username}-pass`) })));
  writeFileSync(usersFile, JSON.stringify({ users: hashed }));
  const sandbox = await startSandbox({ candidates: await sampleCandidates({ now: new Date() }) });
  const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
  const app = await startTestApp({
    environments: environments.map((name) => testEnvironment(target, { name })),
    access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
    hub: createLiveHub(),
    presence,
  });
  const streams: TestStream[] = [];
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await app.close();
    await sandbox.close();
  });

  /** Signs `username` in: their session cookie. */
  async function signIn(username: string): Promise<string> {
    const res = await rawRequest(app.port, '/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: `${username}-pass` }),
    });
    expect(res.status).toBe(200);
    return res.headers['set-cookie']![0]!.split(';')[0]!;
  }

  /** A tab of the session `cookie`: its stream, opened, its hello and first snapshot read, and the stream's id. */
  async function openTab(cookie: string): Promise<{ stream: TestStream; id: string }> {
    const stream = await openStream(app.port, { cookie });
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.until(() => stream.streamId() !== undefined && stream.viewers() !== undefined);
    return { stream, id: stream.streamId()! };
  }

  return { app, signIn, openTab };
}
