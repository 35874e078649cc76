import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LookupKind } from '../../src/kyc/contract/lookup.ts';
import { MAX_OPENED_IN_MEMORY, openedIn, openedInMemory, openedSecrets } from '../../src/server/lookup/opened-candidates.ts';
import { createMemoryStore } from '../../src/server/state/store.ts';
import { virtualClock } from './clock.ts';

/**
 * What a user opened lately (opened-candidates.ts), kept for `limits.exportAfterLookupMinutes` from each
 * lookup: on a clock that is moved ahead, never waited for. The routes that use it: export-opened.test.ts.
 */

const TTL = 60_000;

describe('the candidates opened, in this process', () => {
  it('are kept the time given from each lookup, no longer; a lookup again starts it again, and one forgotten is gone', async () => {
    const clock = virtualClock();
    const opened = openedInMemory(TTL, { now: clock.now });
    await opened.open('prod', 'ana', 'refId', 'c-1');
    await clock.sleep(TTL - 1);
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'c-1')).toBe(true);
    await opened.open('prod', 'ana', 'refId', 'c-1');
    await clock.sleep(TTL - 1);
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'c-1')).toBe(true);
    await clock.sleep(1);
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'c-1')).toBe(false);
    await opened.open('prod', 'ana', 'refId', 'c-2');
    await opened.forget('prod', 'ana', 'refId', 'c-2');
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'c-2')).toBe(false);
  });

  it('are each kept for its user, kind, id and environment alone', async () => {
    const opened = openedInMemory(TTL);
    await opened.open('prod', 'ana', 'refId', 'c-1');
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'c-1')).toBe(true);
    const others: Array<[string, string, LookupKind, string]> = [
      ['test', 'ana', 'refId', 'c-1'],
      ['prod', 'sam', 'refId', 'c-1'],
      ['prod', 'ana', 'recordId', 'c-1'],
      ['prod', 'ana', 'refId', 'c-2'],
    ];
    for (const other of others) {
      expect(await opened.wasOpened(...other), other.join(' ')).toBe(false);
    }
  });

  it(`are at most ${MAX_OPENED_IN_MEMORY.toLocaleString('en')}: past it the oldest goes first, and one opened again is the newest`, async () => {
    const opened = openedInMemory(TTL);
    const id = (n: number) => `c-${n}`;
    for (let n = 0; n < MAX_OPENED_IN_MEMORY; n++) await opened.open('prod', 'ana', 'refId', id(n));
    // c-0 opened again moves to the end: c-1 is now the oldest.
    await opened.open('prod', 'ana', 'refId', id(0));
    expect(await opened.wasOpened('prod', 'ana', 'refId', id(1))).toBe(true);
    await opened.open('prod', 'ana', 'refId', id(MAX_OPENED_IN_MEMORY));
    expect(await opened.wasOpened('prod', 'ana', 'refId', id(1))).toBe(false);
    for (const n of [0, 2, MAX_OPENED_IN_MEMORY - 1, MAX_OPENED_IN_MEMORY])
      expect(await opened.wasOpened('prod', 'ana', 'refId', id(n)), id(n)).toBe(true);
  });
});

describe('the candidates opened, in the shared store', () => {
  it('are kept there under the environment and a keyed hash of the user, kind and id, with the time given as its expiry', async () => {
    const clock = virtualClock();
    const store = createMemoryStore({ now: clock.now });
    const opened = openedIn(store, TTL, openedSecrets([{ info: { name: 'prod' }, target: { apiKey: 'sk_live_prod' } }]));
    await opened.open('prod', 'ana', 'refId', 'cust_000482');
    // docs/deploying.md's key: no user and no id in the clear, and nothing of the candidate as its value;
    // hashed with a secret derived from the environment's API key, not a plain SHA-256 anyone could redo.
    const parts = JSON.stringify(['ana', 'refId', 'cust_000482']);
    const secret = createHmac('sha256', 'sk_live_prod').update('candidate-lookup:opened').digest();
    const key = `opened:prod:${createHmac('sha256', secret).update(parts).digest('hex')}`;
    expect(await store.get(key)).toBe('1');
    expect(await store.get(`opened:prod:${createHash('sha256').update(parts).digest('hex')}`)).toBeUndefined();
    await clock.sleep(TTL - 1);
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'cust_000482')).toBe(true);
    await clock.sleep(1);
    expect(await opened.wasOpened('prod', 'ana', 'refId', 'cust_000482')).toBe(false);
    expect(await store.get(key)).toBeUndefined();
  });
});
