import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSignInFailures } from '../../src/server/auth/sign-in-failures.ts';
import { SignInGuard } from '../../src/server/auth/sign-in-guard.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { DEFAULT_QUEUE_LIMITS } from '../../src/server/auth/sign-in-queue.ts';

describe('SignInGuard', () => {
  // The failure counts expire by the clock (rate-limiter-flexible reads Date): only Date is faked.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const guard = () => new SignInGuard({ failures: createSignInFailures(createMemoryStore()), baseDelayMs: 0 });
  const wrong = async () => undefined;
  const right = async () => 'signed in';

  it('locks a username at one address after ten failures, for 15 minutes, and not elsewhere', async () => {
    const g = guard();
    for (let i = 0; i < 10; i++) expect(await g.attempt('Ana', '10.0.0.1', wrong)).toEqual({ ok: false, reason: 'failed' });
    expect(await g.attempt('ana', '10.0.0.1', right)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 900 });
    expect(await g.attempt('ana', '10.0.0.2', right)).toEqual({ ok: true, value: 'signed in' });
    vi.setSystemTime(Date.now() + 15 * 60_000 + 1);
    expect(await g.attempt('ana', '10.0.0.1', right)).toEqual({ ok: true, value: 'signed in' });
  });

  it('counts nothing for a check that threw, and checks no guess past the tenth', async () => {
    const g = guard();
    const broken = async (): Promise<string> => {
      throw new Error('users file unreadable');
    };
    for (let i = 0; i < 12; i++) await expect(g.attempt('ana', '10.0.0.1', broken)).rejects.toThrow('users file unreadable');
    expect(await g.attempt('ana', '10.0.0.1', right)).toEqual({ ok: true, value: 'signed in' });
    for (let i = 0; i < 5; i++) await g.attempt('ana', '10.0.0.1', wrong);
    // One checked at a time, seven waiting (the line holds eight per address): five more checked, then locked.
    const burst = await Promise.all(Array.from({ length: 8 }, () => g.attempt('ana', '10.0.0.1', wrong)));
    expect(burst.map((a) => (a.ok ? 'ok' : a.reason))).toEqual([...Array(5).fill('failed'), ...Array(3).fill('locked')]);
  });

  it('checks one sign-in per username at a time, the next waiting its turn, and a success clears that username’s failures', async () => {
    const g = guard();
    let release: (value: string) => void = () => {};
    const order: string[] = [];
    const slow = g.attempt('sam', '10.0.0.3', () => new Promise<string>((resolve) => (release = resolve)));
    const waiting = g.attempt('SAM', '10.0.0.4', async () => {
      order.push('second checked');
      return 'second';
    });
    // The second waits its turn in the line, unchecked, while the first is checked.
    await vi.waitFor(() => expect(g.waiting).toBe(1));
    expect(order).toEqual([]);
    order.push('first done');
    release('first');
    expect(await slow).toEqual({ ok: true, value: 'first' });
    expect(await waiting).toEqual({ ok: true, value: 'second' });
    expect(order).toEqual(['first done', 'second checked']);
    for (let i = 0; i < 9; i++) await g.attempt('sam', '10.0.0.3', wrong);
    expect((await g.attempt('sam', '10.0.0.3', right)).ok).toBe(true);
    expect(await g.attempt('sam', '10.0.0.3', wrong)).toEqual({ ok: false, reason: 'failed' });
    expect((await g.attempt('sam', '10.0.0.3', right)).ok).toBe(true);
  });

  it('gives the turn back before the wait after a failure, and refuses a sign-in that waits too long or a line too long', async () => {
    const g = new SignInGuard({
      failures: createSignInFailures(createMemoryStore()),
      baseDelayMs: 1000,
      queue: { user: 1, address: 4, all: 8, waitingPerAddress: 2, maxWaitMs: 200 },
    });
    // A wrong guess held back for a second: the colleague's sign-in is checked meanwhile.
    let answered = false;
    let checked = false;
    const guess = g
      .attempt('ana', '10.0.0.9', async () => {
        checked = true;
        return undefined;
      })
      .finally(() => (answered = true));
    await vi.waitFor(() => expect(checked).toBe(true));
    expect(await g.attempt('ana', '10.0.0.1', right)).toEqual({ ok: true, value: 'signed in' });
    expect(answered).toBe(false);

    let release: ((value: string) => void) | undefined;
    const slow = g.attempt('bob', '10.0.0.2', () => new Promise<string>((resolve) => (release = resolve)));
    await vi.waitFor(() => expect(release).toBeDefined());
    const queued = [g.attempt('bob', '10.0.0.2', right), g.attempt('bob', '10.0.0.2', right)];
    expect(await g.attempt('bob', '10.0.0.2', right)).toEqual({ ok: false, reason: 'busy' });
    expect(await Promise.all(queued)).toEqual([
      { ok: false, reason: 'busy' },
      { ok: false, reason: 'busy' },
    ]);
    release!('late');
    expect(await slow).toEqual({ ok: true, value: 'late' });
    expect(await guess).toEqual({ ok: false, reason: 'failed' });
  });

  /** The i-th of many addresses in one IPv6 /64, each new, as an attacker holding the /64 rotates through it. */
  const rotating = (i: number) => `2001:db8:1:2:${((i * 7919) % 65_536).toString(16)}:${i.toString(16)}:9:${(i + 1).toString(16)}`;

  it('attack: wrong passwords from rotating addresses of one IPv6 /64 are counted as one client: locked after 50, a colleague signs in at once', async () => {
    const g = guard();
    const reasons: string[] = [];
    for (let i = 0; i < 60; i++) {
      const attempt = await g.attempt(`u${i}`, rotating(i), wrong);
      reasons.push(attempt.ok ? 'ok' : attempt.reason);
    }
    expect(reasons).toEqual([...Array(50).fill('failed'), ...Array(10).fill('locked')]);
    // Locked: the /64, whichever of its addresses, even with a right password; neither another /64 nor an IPv4 client.
    expect(await g.attempt('ana', '2001:db8:1:2::7', right)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 900 });
    expect(await g.attempt('ana', '2001:db8:1:3::7', right)).toEqual({ ok: true, value: 'signed in' });
    expect(await g.attempt('ana', '198.51.100.7', right)).toEqual({ ok: true, value: 'signed in' });
  });

  it('attack: ten wrong passwords for one username from rotating addresses of one /64 lock that username there, and nowhere else', async () => {
    const g = guard();
    for (let i = 0; i < 10; i++) expect(await g.attempt('ana', rotating(i), wrong)).toEqual({ ok: false, reason: 'failed' });
    expect(await g.attempt('ana', rotating(10), right)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 900 });
    expect(await g.attempt('sam', rotating(11), right)).toEqual({ ok: true, value: 'signed in' });
    expect(await g.attempt('ana', '2001:db8:1:3::1', right)).toEqual({ ok: true, value: 'signed in' });
    // IPv4 stays per address: a neighbour is another client.
    for (let i = 0; i < 10; i++) await g.attempt('bob', '203.0.113.7', wrong);
    expect(await g.attempt('bob', '203.0.113.7', right)).toMatchObject({ ok: false, reason: 'locked' });
    expect(await g.attempt('bob', '203.0.113.8', right)).toEqual({ ok: true, value: 'signed in' });
  });

  it("attack: a flood of sign-ins from rotating addresses of one /64 takes one turn: a colleague's is checked while the flood's are held", async () => {
    const g = guard();
    const held: Array<() => void> = [];
    const checked: string[] = [];
    let holding = true;
    const hold = (name: string) => () => {
      checked.push(name);
      return holding ? new Promise<undefined>((resolve) => held.push(() => resolve(undefined))) : Promise.resolve(undefined);
    };
    const inLine = DEFAULT_QUEUE_LIMITS.waitingPerAddress;
    const flood = Array.from({ length: inLine + 12 }, (_, i) => g.attempt(`u${i}`, rotating(i), hold(`u${i}`)));
    await vi.waitFor(() => expect(checked).toEqual(['u0']));
    // One checked, a client's line of them waiting, the rest refused at once.
    expect(g.waiting).toBe(inLine);
    const colleague = await g.attempt('ana', '198.51.100.7', async () => {
      checked.push('ana');
      return 'signed in';
    });
    expect(colleague).toEqual({ ok: true, value: 'signed in' });
    expect(checked).toEqual(['u0', 'ana']);
    holding = false;
    for (const release of held) release();
    const reasons = (await Promise.all(flood)).map((attempt) => (attempt.ok ? 'ok' : attempt.reason));
    expect(reasons.filter((reason) => reason === 'failed')).toHaveLength(inLine + 1);
    expect(reasons.filter((reason) => reason === 'busy')).toHaveLength(11);
  });
});
