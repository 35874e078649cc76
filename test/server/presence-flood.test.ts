import { beforeEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { PRESENCE_PATH, presenceRoomsSchema } from '../../src/kyc/contract/presence.ts';
import type { TestStream } from './event-source.ts';
import { rawRequest } from './http.ts';
import { startPresenceApp } from './presence-app.ts';

/**
 * Presence under a crowd, over real HTTP: a resilience review found every announcement sent the whole
 * viewer list to every stream (300 reviewers: 42 MB/s, /healthz 448 ms; one user in a loop: 5 418
 * announcements in 10 s, 197 MB to 200 streams). The gap between rounds of snapshots is this test's own
 * timer, stepped by the test (passGap), so that what a stream is sent is counted, never timed.
 */
const ANNOUNCEMENTS_PER_MINUTE = 20;
const BYTES_PER_SECOND = 1000;
const USERS = ['r1', 'r2', 'r3', 'r4', 'w1', 'w2', 'mallory'];
const waits: { ms: number; then: () => void }[] = [];
const waited: number[] = [];

/** The gap between rounds ends: the round due is sent now. */
function passGap(): void {
  for (const due of waits.splice(0)) due.then();
}

const { app, signIn, openTab } = await startPresenceApp(
  USERS.map((username) => ({ username, role: 'compliance' as const })),
  ['a'],
  {
    announcementsPerMinute: ANNOUNCEMENTS_PER_MINUTE,
    bytesPerSecond: BYTES_PER_SECOND,
    wait: (ms, then) => {
      const entry = { ms, then };
      waits.push(entry);
      waited.push(ms);
      return () => void waits.splice(waits.indexOf(entry), 1);
    },
  },
);
// Each test starts with no round due: the last one's gap has passed.
beforeEach(() => {
  while (waits.length > 0) passGap();
});

interface Tab {
  user: string;
  cookie: string;
  stream: TestStream;
  id: string;
}

async function tab(user: string, cookie: string): Promise<Tab> {
  return { user, cookie, ...(await openTab(cookie)) };
}

/** The refId each room answered stands for: the streams name candidates by their rooms only. */
const refIdOfRoom = new Map<string, string>();
async function announce(from: Tab, refId: string) {
  const answer = await rawRequest(app.port, PRESENCE_PATH, {
    method: 'POST',
    headers: { cookie: from.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: from.id, environment: 'a', candidate: { refId, recordId: null } }),
  });
  if (answer.status === 200) for (const room of presenceRoomsSchema.parse(JSON.parse(answer.body)).rooms) refIdOfRoom.set(room, refId);
  return answer;
}
const presenceEvents = (stream: TestStream) => stream.messages.filter((message) => message.event === 'presence');
const refIdsSeen = (stream: TestStream) =>
  (stream.viewers() ?? []).map((viewer) => `${viewer.user}:${viewer.rooms.map((room) => refIdOfRoom.get(room)).join()}`).sort();

describe('presence under a crowd', { timeout: 30_000 }, () => {
  it('attack: many tabs changing candidate quickly: each stream is sent one snapshot at once and one with the final state after the gap, never one per change, and a large round lengthens the gap', async () => {
    const tabs: Tab[] = [];
    for (const user of ['r1', 'r2', 'r3', 'r4']) {
      const cookie = await signIn(user);
      for (let n = 0; n < 3; n++) tabs.push(await tab(user, cookie));
    }
    // 4 rounds over the 12 tabs: 48 changes, each of which every stream could see.
    const last = new Map<Tab, string>();
    for (let round = 0; round < 4; round++) {
      for (const [n, each] of tabs.entries()) {
        const refId = `ref-${round}-${n}`;
        expect((await announce(each, refId)).status).toBe(200);
        last.set(each, refId);
      }
    }
    // Before the gap passes: the stream's first snapshot, and at most the round of the first change.
    for (const { stream } of tabs) expect(presenceEvents(stream).length).toBeLessThanOrEqual(2);

    const sentBefore = tabs.map(({ stream }) => presenceEvents(stream).length);
    passGap();
    const expected = (user: string) =>
      tabs
        .filter((each) => each.user !== user)
        .map((each) => `${each.user}:${last.get(each)}`)
        .sort();
    for (const { user, stream } of tabs) await stream.until(() => refIdsSeen(stream).join() === expected(user).join());
    // The final state arrived, in one more event each.
    for (const { stream } of tabs) expect(presenceEvents(stream).length).toBeLessThanOrEqual(3);
    // That round sent every stream its view: the gap after it is as long as those bytes take at the budget.
    const bytes = tabs.reduce((sum, { stream }, n) => {
      const sent = presenceEvents(stream).slice(sentBefore[n]);
      return sum + sent.reduce((total, message) => total + Buffer.byteLength(message.data ?? ''), 0);
    }, 0);
    expect(bytes).toBeGreaterThan(0);
    expect(waited.at(-1)).toBeGreaterThanOrEqual(Math.ceil((bytes / BYTES_PER_SECOND) * 1000));
    for (const { stream } of tabs) stream.close();
  });

  it("attack: one user announcing in a loop is refused 429 with Retry-After past the limit, and the others' streams are not flooded", async () => {
    const watchers = [await tab('w1', await signIn('w1')), await tab('w2', await signIn('w2'))];
    const mallory = await tab('mallory', await signIn('mallory'));
    const answers = [];
    for (let n = 0; n < 3 * ANNOUNCEMENTS_PER_MINUTE; n++) answers.push(await announce(mallory, `loop-${n}`));
    expect(answers.slice(0, ANNOUNCEMENTS_PER_MINUTE).map((answer) => answer.status)).toEqual(Array(ANNOUNCEMENTS_PER_MINUTE).fill(200));
    for (const refused of answers.slice(ANNOUNCEMENTS_PER_MINUTE)) {
      expect(refused.status).toBe(429);
      expect(apiErrorBodySchema.parse(JSON.parse(refused.body)).error.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    for (const { stream } of watchers) expect(presenceEvents(stream).length).toBeLessThanOrEqual(2);

    // After the gap, the others see her last accepted announcement, in one more event.
    passGap();
    const lastAccepted = `mallory:loop-${ANNOUNCEMENTS_PER_MINUTE - 1}`;
    for (const { stream } of watchers) {
      await stream.until(() => refIdsSeen(stream).includes(lastAccepted));
      expect(refIdsSeen(stream)).toEqual([lastAccepted]);
      expect(presenceEvents(stream).length).toBeLessThanOrEqual(3);
    }
    for (const { stream } of [...watchers, mallory]) stream.close();
  });
});
