import { describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { PRESENCE_PATH, type PresenceViewer, presenceRoomsSchema } from '../../src/kyc/contract/presence.ts';
import type { TestStream } from './event-source.ts';
import { rawRequest } from './http.ts';
import { startPresenceApp } from './presence-app.ts';

/**
 * Presence over real HTTP (issue 33): two environments "a" and "b", built-in users (tess may use "a"
 * only, rita is a support user), the presence clock injected so that an entry's expiry is a step of the
 * test, not a wait.
 */
let clock = Date.now();
const { app, signIn, openTab } = await startPresenceApp(
  [
    { username: 'ana', role: 'compliance' },
    { username: 'tess', role: 'compliance', environments: ['a'] },
    { username: 'rita', role: 'support' },
  ],
  ['a', 'b'],
  { now: () => clock, sweepMs: 20, gapMs: 20 },
);

/** A signed-in tab: its stream (opened, its hello read) and its cookie. */
async function tab(username: string): Promise<{ cookie: string; stream: TestStream; id: string }> {
  const cookie = await signIn(username);
  return { cookie, ...(await openTab(cookie)) };
}

function announce(cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return rawRequest(app.port, PRESENCE_PATH, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const CANDIDATE = { refId: 'ref-presence-1', recordId: '5f1a2b3c4d5e6f7a8b9c0d1e' };
const until = (stream: TestStream, test: (viewers: PresenceViewer[]) => boolean) =>
  stream.until(() => {
    const viewers = stream.viewers();
    return viewers !== undefined && test(viewers);
  });
/** The rooms an announcement was answered with: how the page names the candidate it shows. */
const roomsOf = (answer: { body: string }) => presenceRoomsSchema.parse(JSON.parse(answer.body)).rooms;
const codeOf = (body: string) => apiErrorBodySchema.parse(JSON.parse(body)).error.code;

describe('presence: who else has a candidate open', { timeout: 20_000 }, () => {
  it('names each stream in a hello event, and a page that opens a candidate is seen by the others of its environment, never by itself', async () => {
    const [ana, tess, rita] = [await tab('ana'), await tab('tess'), await tab('rita')];
    expect(ana.id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(new Set([ana.id, tess.id, rita.id]).size).toBe(3);
    const answer = await announce(ana.cookie, { stream: ana.id, environment: 'a', candidate: CANDIDATE });
    expect(answer.status).toBe(200);
    // A room per id, neither of them the id: the page matches viewers with these.
    const rooms = roomsOf(answer);
    expect(rooms).toHaveLength(2);
    for (const room of rooms) expect(room).toMatch(/^[0-9a-f]{32}$/);
    const ofAna = { user: 'ana', environment: 'a', rooms };
    await until(tess.stream, (viewers) => viewers.some((viewer) => viewer.user === 'ana'));
    expect(tess.stream.viewers()).toEqual([ofAna]);
    // A support user sees a compliance user, and the other way round: both open candidates.
    await until(rita.stream, (viewers) => viewers.length === 1);
    expect(rita.stream.viewers()).toEqual([ofAna]);
    expect(ana.stream.viewers()).toEqual([]);

    // Leaving the candidate (another page): gone for the others at once.
    const left = await announce(ana.cookie, { stream: ana.id, environment: 'a', candidate: null });
    expect([left.status, roomsOf(left)]).toEqual([200, []]);
    await until(tess.stream, (viewers) => viewers.length === 0);
    for (const stream of [ana, tess, rita]) stream.stream.close();
  });

  it('attack: a user limited to one environment learns nothing of who views candidates of another', async () => {
    const [ana, tess, rita] = [await tab('ana'), await tab('tess'), await tab('rita')];
    const inB = roomsOf(await announce(ana.cookie, { stream: ana.id, environment: 'b', candidate: CANDIDATE }));
    await until(rita.stream, (viewers) => viewers.length === 1);
    expect(rita.stream.viewers()).toEqual([{ user: 'ana', environment: 'b', rooms: inB }]);
    // Tess's stream was sent nothing new: her view did not change.
    expect(tess.stream.viewers()).toEqual([]);
    expect(tess.stream.messages.filter((m) => m.event === 'presence')).toHaveLength(1);
    // Nor can she say she views one there.
    const refused = await announce(tess.cookie, { stream: tess.id, environment: 'b', candidate: CANDIDATE });
    expect(refused.status).toBe(403);
    expect(codeOf(refused.body)).toBe('environment_forbidden');
    for (const stream of [ana, tess, rita]) stream.stream.close();
  });

  it("attack: another user's stream id neither removes nor takes over their presence", async () => {
    const [ana, tess, rita] = [await tab('ana'), await tab('tess'), await tab('rita')];
    const rooms = roomsOf(await announce(ana.cookie, { stream: ana.id, environment: 'a', candidate: CANDIDATE }));
    await until(tess.stream, (viewers) => viewers.length === 1);
    // Rita names Ana's stream: her own entry under that name, Ana's stays as it was.
    await announce(rita.cookie, { stream: ana.id, environment: 'a', candidate: null });
    const other = roomsOf(await announce(rita.cookie, { stream: ana.id, environment: 'a', candidate: { refId: 'other', recordId: null } }));
    await until(tess.stream, (viewers) => viewers.length === 2);
    expect(tess.stream.viewers()).toEqual(
      expect.arrayContaining([
        { user: 'ana', environment: 'a', rooms },
        { user: 'rita', environment: 'a', rooms: other },
      ]),
    );
    // Her entry under that name is hers to remove (it is no stream of hers, so its end would not).
    await announce(rita.cookie, { stream: ana.id, environment: 'a', candidate: null });
    await until(tess.stream, (viewers) => viewers.length === 1);
    for (const stream of [ana, tess, rita]) stream.stream.close();
  });

  it('gives a candidate the same room by either id, and one no other id shares', async () => {
    const cookie = await signIn('ana');
    const stream = 'r'.repeat(22);
    const rooms = async (environment: string, candidate: unknown) => roomsOf(await announce(cookie, { stream, environment, candidate }));
    const [both, byRef, byRecord] = [
      await rooms('a', CANDIDATE),
      await rooms('a', { refId: CANDIDATE.refId, recordId: null }),
      await rooms('a', { refId: null, recordId: CANDIDATE.recordId }),
    ];
    expect(both).toEqual([...byRef, ...byRecord]);
    // The id it does not know may be left out rather than sent as null, as docs/api.md says (the soak review: a 400).
    expect(await rooms('a', { refId: CANDIDATE.refId })).toEqual(byRef);
    expect(await rooms('a', { recordId: CANDIDATE.recordId })).toEqual(byRecord);
    // A refId spelled as the recordId is another candidate's, not this one's.
    expect(await rooms('a', { refId: CANDIDATE.recordId, recordId: null })).not.toEqual(byRecord);
    // No entry left for the tests after: that stream shows nothing now.
    expect(await rooms('a', null)).toEqual([]);
  });

  it('a page whose stream ends (the tab closed) is gone for the others at once', async () => {
    const [ana, tess] = [await tab('ana'), await tab('tess')];
    await announce(ana.cookie, { stream: ana.id, environment: 'a', candidate: CANDIDATE });
    await until(tess.stream, (viewers) => viewers.length === 1);
    ana.stream.close();
    await until(tess.stream, (viewers) => viewers.length === 0);
    tess.stream.close();
  });

  it('an entry no heartbeat renewed expires (its instance stopped without saying so)', async () => {
    const [ana, tess, rita] = [await tab('ana'), await tab('tess'), await tab('rita')];
    await announce(ana.cookie, { stream: ana.id, environment: 'a', candidate: CANDIDATE });
    await until(tess.stream, (viewers) => viewers.length === 1);
    // A heartbeat renews it: two minutes on, it is still there when the next change goes out.
    clock += 60_000;
    await announce(ana.cookie, { stream: ana.id, environment: 'a', candidate: CANDIDATE });
    clock += 60_000;
    const other = roomsOf(
      await announce(rita.cookie, { stream: rita.id, environment: 'a', candidate: { refId: 'other', recordId: null } }),
    );
    await until(tess.stream, (viewers) => viewers.length === 2);
    // Past its expiry (75 s after the heartbeat), the sweep removes it; Rita's, 20 s old, stays.
    clock += 20_000;
    await until(tess.stream, (viewers) => viewers.length === 1);
    expect(tess.stream.viewers()).toEqual([{ user: 'rita', environment: 'a', rooms: other }]);
    for (const stream of [ana, tess, rita]) stream.stream.close();
  });

  it.each([
    ['not JSON', '{', 400, 'bad_request'],
    ['no stream id', { environment: 'a', candidate: null }, 400, 'bad_request'],
    [
      'a candidate without ids',
      { stream: 'x'.repeat(22), environment: 'a', candidate: { refId: null, recordId: null } },
      400,
      'bad_request',
    ],
    ['an environment that does not exist', { stream: 'x'.repeat(22), environment: 'nope', candidate: null }, 404, 'no_such_environment'],
    [
      'a body over 2 kB',
      { stream: 'x'.repeat(22), environment: 'a', candidate: { refId: 'r'.repeat(4000), recordId: null } },
      413,
      'body_too_large',
    ],
  ])('refuses %s with a clear answer', async (_, body, status, code) => {
    const cookie = await signIn('ana');
    const answer = await announce(cookie, body);
    expect(answer.status).toBe(status);
    expect(codeOf(answer.body)).toBe(code);
  });

  it('takes POST with JSON from a signed-in user only', async () => {
    const cookie = await signIn('ana');
    expect(codeOf((await rawRequest(app.port, PRESENCE_PATH, { headers: { cookie } })).body)).toBe('method_not_allowed');
    expect(codeOf((await announce(cookie, '{}', { 'content-type': 'text/plain' })).body)).toBe('unsupported_media_type');
    expect(codeOf((await announce('', { stream: 'x'.repeat(22), environment: 'a', candidate: null })).body)).toBe('unauthenticated');
  });
});
