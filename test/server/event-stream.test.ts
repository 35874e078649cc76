import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_REQUEST_HEADER, apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { STREAM_HELLO_EVENT_NAME, STREAM_RESYNC_EVENT_NAME } from '../../src/kyc/contract/presence.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createLiveHub } from '../../src/server/live/create-live-hub.ts';
import { createMetrics } from '../../src/server/ops/metrics.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { liveEvent, openStream, type TestStream } from './event-source.ts';
import { rawRequest, startTestApp, testEnvironment, type TestApp } from './http.ts';
import { startInstance } from './instance.ts';
import { testPasswordHash } from './passwords.ts';

/**
 * `GET /api/events` over real HTTP: two environments "a" and "b" (one sandbox behind both), built-in
 * users (tess may use "a" only), a short injected heartbeat, at most three streams per user.
 */
const candidates = await sampleCandidates({ now: new Date() });
const LOOKUP = `/api/status/refId/${candidates[0]!.record.refId}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-events-'));
const usersFile = path.join(dir, 'users.json');
const hub = createLiveHub();
const metrics = createMetrics();
let sandbox: RunningSandbox;
let app: TestApp;
const streams: TestStream[] = [];

let users: { username: string; passwordHash: string; role: string; environments?: string[] }[] = [];

/** The users file with only `names`: each keeps its password hash, so that the others' sessions stand. */
async function writeUsers(names: string[]): Promise<void> {
  if (users.length === 0) {
    users = [
      { username: 'ana', passwordHash: await testPasswordHash('ana-pass'), role: 'compliance' },
      { username: 'tess', passwordHash: await testPasswordHash('tess-pass'), role: 'compliance', environments: ['a'] },
      { username: 'rita', passwordHash: await testPasswordHash('rita-pass'), role: 'support' },
    ];
  }
  const all = users;
  writeFileSync(usersFile, JSON.stringify({ users: all.filter((user) => names.includes(user.username)) }));
}

beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
  await writeUsers(['ana', 'tess', 'rita']);
  const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
  app = await startTestApp({
    environments: [testEnvironment(target, { name: 'a' }), testEnvironment(target, { name: 'b' })],
    access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
    hub,
    metrics,
    eventStreams: { heartbeatMs: 40, maxPerUser: 3 },
    settings: {
      limits: {
        lookupsPerMinute: 2,
      },
    },
  });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await app?.close();
  await sandbox?.close();
});

async function signIn(username: string, port = app.port): Promise<string> {
  const res = await rawRequest(port, '/api/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: `${username}-pass` }),
  });
  expect(res.status).toBe(200);
  return res.headers['set-cookie']![0]!.split(';')[0]!;
}

async function stream(cookie: string, headers: Record<string, string | undefined> = {}): Promise<TestStream> {
  const opened = await openStream(app.port, { cookie, ...headers });
  streams.push(opened);
  return opened;
}

const codeOf = (body: string) => apiErrorBodySchema.parse(JSON.parse(body)).error.code;
const refIds = (s: TestStream) => s.events().map(({ event }) => event.refId);

describe('GET /api/events', () => {
  it('passes a published event on to a subscribed client, as a Server-Sent Event that no proxy buffers', async () => {
    const ana = await stream(await signIn('ana'));
    expect(ana.status).toBe(200);
    expect(ana.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(ana.headers['cache-control']).toBe('no-store');
    expect(ana.headers['x-accel-buffering']).toBe('no');
    expect(ana.headers['content-encoding']).toBeUndefined();
    const sent = liveEvent('a', 'ref-first');
    await hub.publish(sent);
    await ana.until(() => ana.events().length === 1);
    const [received] = ana.events();
    expect(received!.event).toEqual(sent);
    expect(received!.id).toMatch(/^\d+$/);
    expect(ana.messages.find((m) => m.event === 'kyc')?.event).toBe('kyc');
    ana.close();
  });

  it("sends a user only the events of the environments they may use (none of b's to tess)", async () => {
    const [tess, ana] = [await stream(await signIn('tess')), await stream(await signIn('ana'))];
    await hub.publish(liveEvent('b', 'ref-in-b'));
    await hub.publish(liveEvent('a', 'ref-in-a'));
    await ana.until(() => ana.events().length === 2);
    await tess.until(() => tess.events().length === 1);
    expect(refIds(ana)).toEqual(['ref-in-b', 'ref-in-a']);
    expect(refIds(tess)).toEqual(['ref-in-a']);
    tess.close();
    ana.close();
  });

  it('replays the events after Last-Event-ID, in order, and none before it', async () => {
    const cookie = await signIn('ana');
    const watching = await stream(cookie);
    for (const ref of ['r1', 'r2', 'r3']) await hub.publish(liveEvent('a', ref));
    await watching.until(() => watching.events().length === 3);
    const [first] = watching.events();
    watching.close();
    const again = await stream(cookie, { 'last-event-id': first!.id });
    await again.until(() => again.events().length === 2);
    expect(refIds(again)).toEqual(['r2', 'r3']);
    const ids = again.events().map((e) => BigInt(e.id));
    expect(ids[0]! > BigInt(first!.id) && ids[1]! > ids[0]!).toBe(true);
    again.close();
  });

  it('gives a new stream the point to go on from before any event, so that a page reconnecting before its first event misses none', async () => {
    const cookie = await signIn('ana');
    await hub.publish(liveEvent('a', 'before-the-page'));
    const first = await stream(cookie);
    await first.until(() => first.streamId() !== undefined);
    // The hello event carries the id a browser's EventSource sends back as Last-Event-ID when it reconnects.
    const mark = first.messages.find((message) => message.event === STREAM_HELLO_EVENT_NAME)?.id;
    expect(mark).toMatch(/^\d+$/);
    first.close();
    await hub.publish(liveEvent('a', 'while-away'));
    const again = await stream(cookie, { 'last-event-id': mark });
    await again.until(() => again.events().length === 1);
    expect(refIds(again)).toEqual(['while-away']);
    again.close();
  });

  it('replays nothing for a Last-Event-ID that is not one of its ids', async () => {
    const cookie = await signIn('ana');
    await hub.publish(liveEvent('a', 'before'));
    const made = await stream(cookie, { 'last-event-id': 'x; DROP' });
    await hub.publish(liveEvent('a', 'after'));
    await made.until(() => made.events().length === 1);
    expect(refIds(made)).toEqual(['after']);
    made.close();
  });

  it('refuses a stream beyond the per-user cap with 429 too_many_event_streams, and not another user', async () => {
    const cookie = await signIn('rita');
    for (let i = 0; i < 3; i++) expect((await stream(cookie)).status).toBe(200);
    const refused = await stream(cookie);
    expect(refused.status).toBe(429);
    expect(codeOf(refused.body)).toBe('too_many_event_streams');
    expect((await stream(await signIn('tess'))).status).toBe(200);
    expect((await metrics.registry.getSingleMetric('candidate_lookup_event_streams_open')?.get())?.values[0]?.value).toBeGreaterThanOrEqual(
      4,
    );
  });

  it('closes the stream of a session that signs out, and not the same user’s other session', async () => {
    const [one, two] = [await signIn('ana'), await signIn('ana')];
    const [leaving, staying] = [await stream(one), await stream(two)];
    expect((await rawRequest(app.port, '/api/session', { method: 'DELETE', headers: { cookie: one } })).status).toBe(200);
    await leaving.ended;
    await hub.publish(liveEvent('a', 'after-sign-out'));
    await staying.until(() => refIds(staying).includes('after-sign-out'));
    staying.close();
  });

  it('closes the stream of a user removed from the users file', async () => {
    const rita = await stream(await signIn('rita'));
    await writeUsers(['ana', 'tess']);
    try {
      await rita.ended;
    } finally {
      await writeUsers(['ana', 'tess', 'rita']);
    }
  });

  it('sends a heartbeat comment at the injected interval', async () => {
    const ana = await stream(await signIn('ana'));
    await ana.until((messages) => messages.filter((m) => m.comments.includes('heartbeat')).length >= 2);
    ana.close();
  });

  it('answers 401 to nobody signed in', async () => {
    const anonymous = await stream('');
    expect(anonymous.status).toBe(401);
    expect(codeOf(anonymous.body)).toBe('unauthenticated');
  });

  it('does not count open streams against the lookup rate limit', async () => {
    const cookie = await signIn('ana');
    for (let i = 0; i < 3; i++) (await stream(cookie)).close();
    for (let i = 0; i < 2; i++) expect((await rawRequest(app.port, LOOKUP, { headers: { cookie } })).status).toBe(200);
  });
});

describe('cross-site EventSource: another site cannot hold a user’s stream', () => {
  it('refuses a stream a page of another site opens (Sec-Fetch-Site: cross-site), though the cookie came along', async () => {
    const refused = await stream(await signIn('ana'), { 'sec-fetch-site': 'cross-site' });
    expect(refused.status).toBe(403);
    expect(codeOf(refused.body)).toBe('not_from_app');
  });

  it('refuses a stream whose Origin is another host, and one that proves no origin and lacks the app header', async () => {
    const cookie = await signIn('ana');
    const elsewhere = await stream(cookie, { 'sec-fetch-site': undefined, origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(403);
    const unproven = await openStream(app.port, { cookie, 'sec-fetch-site': undefined });
    expect(unproven.status).toBe(403);
  });

  it('accepts an Origin naming this very host (a browser without Sec-Fetch-Site)', async () => {
    const same = await stream(await signIn('tess'), { 'sec-fetch-site': undefined, origin: `http://127.0.0.1:${app.port}` });
    expect(same.status).toBe(200);
    same.close();
  });

  it('still asks the app header of anything but GET', async () => {
    const res = await rawRequest(app.port, '/api/events', {
      method: 'POST',
      headers: { cookie: await signIn('ana'), [APP_REQUEST_HEADER.name]: undefined, 'sec-fetch-site': 'same-origin' },
    });
    expect(codeOf(res.body)).toBe('not_from_app');
  });
});

describe('the server stopping', () => {
  it('ends every event stream at once, so that they do not hold the shutdown', async () => {
    const at = await startInstance({ KYC_BASE_URL: sandbox.url, KYC_CLIENT_ID: sandbox.clientId, KYC_API_KEY: SANDBOX_KEYS.full });
    try {
      const open = await openStream(at.port);
      expect(open.status).toBe(200);
      at.endStreams();
      await open.ended;
      expect((await openStream(at.port).catch(() => undefined))?.status ?? 0).not.toBe(200);
    } finally {
      await at.close();
    }
  });
});

describe('an unattended session', () => {
  it('an open live update stream does not keep an unattended session from idling out', async () => {
    let clock = Date.now();
    const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
    const idle = await startTestApp({
      environments: [testEnvironment(target, { name: 'a' })],
      access: createAccessControl(
        { mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 1 },
        { signInDelayMs: 1, now: () => clock },
      ),
      hub,
      eventStreams: { heartbeatMs: 20 },
    });
    try {
      const left = await openStream(idle.port, { cookie: await signIn('ana', idle.port) });
      expect(left.status).toBe(200);
      let ended = false;
      void left.ended.then(() => (ended = true));
      const beats = () => left.messages.filter((m) => m.comments.includes('heartbeat')).length;
      // Seven steps of ten seconds, each with two heartbeats (and their session checks) after it.
      for (let step = 0; step < 7 && !ended; step++) {
        clock += 10_000;
        const seen = beats();
        await left.until(() => beats() >= seen + 2).catch(() => undefined);
      }
      await left.until(() => ended || beats() > 0).catch(() => undefined);
      expect(ended).toBe(true);
    } finally {
      await idle.close();
    }
  });
});

describe('a user removed or given a new password', () => {
  it('attack: a removed user’s open live stream is closed within a second', async () => {
    const own = createLiveHub();
    const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
    // A heartbeat of a minute: only the users file's watch can end these streams within the test.
    const watched = await startTestApp({
      environments: [testEnvironment(target, { name: 'a' })],
      access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
      hub: own,
      eventStreams: { heartbeatMs: 60_000 },
    });
    try {
      const cookies = { rita: await signIn('rita', watched.port), tess: await signIn('tess', watched.port) };
      const open = async (cookie: string) => {
        const opened = await openStream(watched.port, { cookie });
        streams.push(opened);
        return opened;
      };
      const [rita, tess, ana] = [await open(cookies.rita), await open(cookies.tess), await open(await signIn('ana', watched.port))];
      await own.publish(liveEvent('a', 'before'));
      await rita.until(() => refIds(rita).includes('before'));

      // Rita removed, and tess given a new password, in one write; nobody asks anything as tess.
      const tessRenewed = { ...users[1]!, passwordHash: await testPasswordHash('tess-new-pass') };
      writeFileSync(usersFile, JSON.stringify({ users: [users[0], tessRenewed] }));
      try {
        // Rita asks until refused: from then on, no event may reach her stream.
        await expect
          .poll(async () => (await rawRequest(watched.port, '/api/meta', { headers: { cookie: cookies.rita } })).status, {
            timeout: 15_000,
            interval: 20,
          })
          .toBe(401);
        await own.publish(liveEvent('a', 'after-refusal'));
        await rita.ended;
        await tess.ended;
        expect(refIds(rita)).toEqual(['before']);
        expect(refIds(tess)).not.toContain('after-refusal');
        // The others' streams stand.
        await ana.until(() => refIds(ana).includes('after-refusal'));
      } finally {
        await writeUsers(['ana', 'tess', 'rita']);
      }
    } finally {
      await watched.close();
    }
  });
});

describe('a stream that stops reading', () => {
  it('is closed once its unsent bytes pass the bound, while a reading stream gets every event', async () => {
    const own = createLiveHub();
    const counted = createMetrics();
    const open = async () => (await counted.registry.getSingleMetric('candidate_lookup_event_streams_open')?.get())?.values[0]?.value;
    const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
    const slowApp = await startTestApp({
      environments: [testEnvironment(target, { name: 'a' })],
      access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
      hub: own,
      eventStreams: { maxBufferedBytes: 64 * 1024 },
      metrics: counted,
    });
    try {
      const [stalled, reading] = [
        await openStream(slowApp.port, { cookie: await signIn('ana', slowApp.port) }),
        await openStream(slowApp.port, { cookie: await signIn('tess', slowApp.port) }),
      ];
      stalled.pause();
      let published = 0;
      // Batches, each sent on before the next (the streams write once per turn of the event loop), until
      // the server has closed the stalled stream (a paused reader does not see its connection end).
      while ((await open()) === 2 && published < 200_000) {
        for (let i = 0; i < 500; i++) await own.publish(liveEvent('a', `slow-${published++}`));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await open()).toBe(1);
      stalled.resume();
      await stalled.ended;
      expect(stalled.events().length).toBeLessThan(published);
      await reading.until(() => reading.events().length === published);
      expect(reading.events().map((e) => e.event.refId)).toEqual(Array.from({ length: published }, (_, n) => `slow-${n}`));
      reading.close();
    } finally {
      await slowApp.close();
    }
  });
});

describe('attack: many streams that never read, each under its own bound', () => {
  it("are cut, furthest behind first, once what they hold together passes the instance's budget, while a reading stream gets every event", async () => {
    const own = createLiveHub();
    const counted = createMetrics();
    const open = async () => (await counted.registry.getSingleMetric('candidate_lookup_event_streams_open')?.get())?.values[0]?.value;
    const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
    // Each stream's own bound is out of reach (256 MiB): only the budget of all of them can cut one.
    const budgeted = await startTestApp({
      environments: [testEnvironment(target, { name: 'a' })],
      access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
      hub: own,
      eventStreams: { maxBufferedBytes: 256 * 1024 * 1024, maxBufferedTotalBytes: 256 * 1024 },
      metrics: counted,
    });
    try {
      const [ana, tess] = [await signIn('ana', budgeted.port), await signIn('tess', budgeted.port)];
      const stalled = [
        await openStream(budgeted.port, { cookie: ana }),
        await openStream(budgeted.port, { cookie: ana }),
        await openStream(budgeted.port, { cookie: tess }),
        await openStream(budgeted.port, { cookie: tess }),
      ];
      const reading = await openStream(budgeted.port, { cookie: await signIn('rita', budgeted.port) });
      for (const one of stalled) one.pause();
      let published = 0;
      // Before the budget, none of the four was cut however much was published (each held up to 256 MiB).
      while ((await open()) !== 1 && published < 200_000) {
        for (let i = 0; i < 500; i++) await own.publish(liveEvent('a', `held-${published++}`));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await open()).toBe(1);
      for (const one of stalled) {
        one.resume();
        await one.ended;
        expect(one.events().length).toBeLessThan(published);
      }
      await reading.until(() => reading.events().length === published);
      expect(reading.events().map((e) => e.event.refId)).toEqual(Array.from({ length: published }, (_, n) => `held-${n}`));
      reading.close();
    } finally {
      await budgeted.close();
    }
  });
});

describe('attack: a stream that asks for everything missed (Last-Event-ID: 0) and never reads', () => {
  it('is not sent the whole replay at once: past the bound it gets a resync under the last id, then the events after', async () => {
    const own = createLiveHub();
    const target = { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full };
    const small = await startTestApp({
      environments: [testEnvironment(target, { name: 'a' })],
      access: createAccessControl({ mode: 'users', usersFile, sessionMaxAgeMinutes: 60, sessionIdleMinutes: 60 }, { signInDelayMs: 1 }),
      hub: own,
      eventStreams: { maxBufferedBytes: 16 * 1024 },
    });
    try {
      const mark = own.mark()!;
      // About 400 kB of missed events: the replay held them all in one write (120 000 events, 110 MB a stream, before).
      for (let i = 0; i < 2000; i++) await own.publish(liveEvent('a', `missed-${i}`));
      const cookie = await signIn('ana', small.port);
      const behind = await openStream(small.port, { cookie, 'last-event-id': mark });
      await behind.until((messages) => messages.some((m) => m.event === STREAM_RESYNC_EVENT_NAME));
      const resync = behind.messages.find((m) => m.event === STREAM_RESYNC_EVENT_NAME)!;
      await own.publish(liveEvent('a', 'after'));
      await behind.until(() => behind.events().some((e) => e.event.refId === 'after'));
      // Fewer than the 2000 missed (those a resync stands for were dropped), every one sent after its resync
      // newer than it, and the resync's id a missed event's: the point a reconnection goes on from.
      expect(behind.events().length).toBeLessThan(2000);
      expect(BigInt(resync.id!)).toBeGreaterThan(BigInt(mark));
      const after = behind.messages.slice(behind.messages.indexOf(resync) + 1).filter((m) => m.event === 'kyc');
      expect(after.every((m) => BigInt(m.id!) > BigInt(resync.id!))).toBe(true);
      behind.close();
    } finally {
      await small.close();
    }
  });
});
