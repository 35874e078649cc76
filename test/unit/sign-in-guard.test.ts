import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSignInFailures } from '../../src/server/auth/sign-in-failures.ts';
import { SignInGuard } from '../../src/server/auth/sign-in-guard.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';

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

  it('checks one sign-in per username at a time, and a success clears that username’s failures', async () => {
    const g = guard();
    let release: (value: string) => void = () => {};
    const slow = g.attempt('sam', '10.0.0.3', () => new Promise<string>((resolve) => (release = resolve)));
    expect(await g.attempt('SAM', '10.0.0.4', right)).toEqual({ ok: false, reason: 'busy' });
    release('first');
    expect(await slow).toEqual({ ok: true, value: 'first' });
    for (let i = 0; i < 9; i++) await g.attempt('sam', '10.0.0.3', wrong);
    expect((await g.attempt('sam', '10.0.0.3', right)).ok).toBe(true);
    expect(await g.attempt('sam', '10.0.0.3', wrong)).toEqual({ ok: false, reason: 'failed' });
    expect((await g.attempt('sam', '10.0.0.3', right)).ok).toBe(true);
  });
});
