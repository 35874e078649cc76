import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SERVICE_WAIT_SECONDS, serviceWaitSeconds, serviceWaitState } from '../../src/server/upstream/service-wait.ts';

const body = (json: unknown) => Buffer.from(JSON.stringify(json));

describe("serviceWaitSeconds: the one read of a 429's wait", () => {
  it('a 429 with only extra.retryAfter: 30 (seconds, as a number or a string of digits)', () => {
    expect(
      serviceWaitSeconds(undefined, body({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 30 } })),
    ).toBe(30);
    expect(serviceWaitSeconds(undefined, body({ extra: { retryAfter: '30' } }))).toBe(30);
    expect(serviceWaitSeconds(undefined, body({ extra: { retryAfter: 2.2 } }))).toBe(3);
  });

  it('the header alone, as before; both: the larger; the cap of 300 s on either', () => {
    expect(serviceWaitSeconds('12', undefined)).toBe(12);
    expect(serviceWaitSeconds('12', Buffer.from('slow down'))).toBe(12);
    expect(serviceWaitSeconds('7', body({ extra: { retryAfter: 30 } }))).toBe(30);
    expect(serviceWaitSeconds('40', body({ extra: { retryAfter: 30 } }))).toBe(40);
    expect(serviceWaitSeconds('86400', undefined)).toBe(MAX_SERVICE_WAIT_SECONDS);
    expect(serviceWaitSeconds(undefined, body({ extra: { retryAfter: 30_000 } }))).toBe(MAX_SERVICE_WAIT_SECONDS);
  });

  it('nothing from a body that is not JSON, has no extra, or a wait that is not a number of seconds', () => {
    for (const bad of [
      Buffer.from('<html>429</html>'),
      Buffer.from(''),
      body(null),
      body([1]),
      body({ extra: 30 }),
      body({ extra: { retryAfter: -1 } }),
      body({ extra: { retryAfter: '30s' } }),
      body({ extra: { retryAfter: '-3' } }),
      body({ extra: { retryAfter: null } }),
      body({ extra: { retryAfter: true } }),
    ]) {
      expect(serviceWaitSeconds(undefined, bad), bad.toString()).toBeUndefined();
    }
  });

  it('attack: a wait of 10 digits or more, in the header or as text in the body, is the longest wait, never none', () => {
    for (const digits of ['9999999999', '99999999999', '9'.repeat(400), `0000000000${'1'.repeat(12)}`]) {
      expect(serviceWaitSeconds(digits, undefined), digits).toBe(MAX_SERVICE_WAIT_SECONDS);
      expect(serviceWaitSeconds(undefined, body({ extra: { retryAfter: digits } })), digits).toBe(MAX_SERVICE_WAIT_SECONDS);
    }
    // JSON's own too large a number (Infinity to JSON.parse) likewise.
    expect(serviceWaitSeconds(undefined, Buffer.from('{"extra":{"retryAfter":1e999}}'))).toBe(MAX_SERVICE_WAIT_SECONDS);
  });

  it('a 429 with retryAfter: 17 at the top of the body, not in extra, is read as extra.retryAfter is; both: the larger', () => {
    expect(serviceWaitSeconds(undefined, body({ status: 'error', message: 'Too many requests', code: 429, retryAfter: 17 }))).toBe(17);
    expect(serviceWaitSeconds(undefined, body({ retryAfter: '17' }))).toBe(17);
    expect(serviceWaitSeconds(undefined, body({ retryAfter: 30, extra: { retryAfter: 9 } }))).toBe(30);
    expect(serviceWaitSeconds(undefined, body({ retryAfter: 4, extra: { retryAfter: 9 } }))).toBe(9);
    expect(serviceWaitSeconds(undefined, body({ retryAfter: 30_000 }))).toBe(MAX_SERVICE_WAIT_SECONDS);
    for (const bad of [-1, '30s', null, true, { seconds: 3 }])
      expect(serviceWaitSeconds(undefined, body({ retryAfter: bad }))).toBeUndefined();
  });

  it('property: the header and the top-level retryAfter give the same wait for the same value (digits as text; a number with its fraction)', () => {
    const digits = fc.oneof(fc.stringMatching(/^\d{1,40}$/), fc.nat({ max: 400 }).map(String), fc.constantFrom('0', '00', '300', '301'));
    fc.assert(
      fc.property(digits, fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }), (whole, fraction) => {
        const text = fraction === undefined ? whole : `${whole}.${fraction}`;
        const fromHeader = serviceWaitSeconds(text, undefined);
        expect(serviceWaitSeconds(undefined, body({ retryAfter: Number(text) })), text).toBe(fromHeader);
        if (fraction === undefined) expect(serviceWaitSeconds(undefined, body({ retryAfter: text })), text).toBe(fromHeader);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: the header and the body give the same wait for the same value (digits as text; a number with its fraction)', () => {
    const digits = fc.oneof(fc.stringMatching(/^\d{1,40}$/), fc.nat({ max: 400 }).map(String), fc.constantFrom('0', '00', '300', '301'));
    fc.assert(
      fc.property(digits, fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }), (whole, fraction) => {
        const text = fraction === undefined ? whole : `${whole}.${fraction}`;
        const fromHeader = serviceWaitSeconds(text, undefined);
        expect(serviceWaitSeconds(undefined, body({ extra: { retryAfter: Number(text) } })), text).toBe(fromHeader);
        if (fraction === undefined) expect(serviceWaitSeconds(undefined, body({ extra: { retryAfter: text } })), text).toBe(fromHeader);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws, and says nothing or a whole number of seconds from 0 to the cap, never less than either source', () => {
    const anyBody = fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
      fc.jsonValue().map((json) => body(json)),
      fc.jsonValue().map((retryAfter) => body({ extra: { retryAfter } })),
      fc.jsonValue().map((retryAfter) => body({ retryAfter })),
      fc.double().map((retryAfter) => body({ extra: { retryAfter } })),
    );
    const anyHeader = fc.option(fc.oneof(fc.string(), fc.nat().map(String), fc.array(fc.string(), { maxLength: 2 })), { nil: undefined });
    fc.assert(
      fc.property(anyHeader, fc.option(anyBody, { nil: undefined }), (header, given) => {
        const seconds = serviceWaitSeconds(header, given);
        if (seconds === undefined) return;
        expect(Number.isInteger(seconds)).toBe(true);
        expect(seconds).toBeGreaterThanOrEqual(0);
        expect(seconds).toBeLessThanOrEqual(MAX_SERVICE_WAIT_SECONDS);
        const alone = [serviceWaitSeconds(header, undefined), given && serviceWaitSeconds(undefined, given)];
        for (const one of alone) if (one !== undefined) expect(seconds).toBeGreaterThanOrEqual(one);
      }),
    );
  });
});

describe("the client's memory of the wait", () => {
  it('keeps the longest wait asked, refuses with the whole seconds left, and lets go once it has passed', () => {
    let now = 1_000_000;
    const wait = serviceWaitState(() => now);
    expect(wait.waiting()).toBeUndefined();
    wait.asked(30);
    now += 500;
    wait.asked(10);
    expect(wait.pausedUntil()).toBe(1_030_000);
    expect(wait.waiting()).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryAfterSeconds: 30 });
    now += 20_000;
    expect(wait.waiting()?.retryAfterSeconds).toBe(10);
    now = 1_030_000;
    expect(wait.waiting()).toBeUndefined();
  });
});

describe('the wait shared with the other instances (with REDIS_URL)', () => {
  const step = fc.oneof(
    fc.record({ kind: fc.constant('asked' as const), seconds: fc.integer({ min: 0, max: MAX_SERVICE_WAIT_SECONDS }) }),
    // What another instance says, as read from Redis: checked there, but this side does not rely on it.
    fc.record({
      kind: fc.constant('learned' as const),
      ms: fc.oneof(fc.integer({ min: -1000, max: 10_000_000 }), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0)),
    }),
    fc.record({ kind: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 400_000 }) }),
  );

  it('never shortens a wait, whoever told it and in whatever order: it ends at the latest end asked or learned (at most 300 s each), and every wait asked here is told on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
        let now = 1_000_000;
        const told: number[] = [];
        let learn: (ms: number) => void = () => {};
        const wait = serviceWaitState(() => now, {
          tell: async (ms) => void told.push(ms),
          watch: (learned) => {
            learn = learned;
          },
        });
        let latestEnd = 0;
        const asked: number[] = [];
        for (const s of steps) {
          if (s.kind === 'time') now += s.ms;
          else if (s.kind === 'asked') {
            await wait.asked(s.seconds);
            asked.push(s.seconds * 1000);
            latestEnd = Math.max(latestEnd, now + s.seconds * 1000);
          } else {
            learn(s.ms);
            if (s.ms > 0) latestEnd = Math.max(latestEnd, now + Math.min(s.ms, MAX_SERVICE_WAIT_SECONDS * 1000));
          }
          expect(wait.pausedUntil()).toBe(latestEnd);
          const left = latestEnd - now;
          expect(wait.waiting()?.retryAfterSeconds).toBe(left > 0 ? Math.ceil(left / 1000) : undefined);
        }
        expect(told).toEqual(asked);
      }),
    );
  });
});
