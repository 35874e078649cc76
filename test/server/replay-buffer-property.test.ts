import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SequencedEvent } from '../../src/server/live/live-hub.ts';
import { createReplayBuffer, eventBytes } from '../../src/server/live/replay-buffer.ts';
import { liveEvent } from './event-source.ts';

/** Events as the hub hears them: ids increasing (not always by one: other instances take some), at non-decreasing times. */
const arrivals = fc.array(fc.record({ idStep: fc.integer({ min: 1, max: 3 }), pause: fc.integer({ min: 0, max: 40 }) }), {
  maxLength: 80,
});
const bounds = fc.record({
  maxEvents: fc.integer({ min: 1, max: 40 }),
  maxBytes: fc.integer({ min: 150, max: 6000 }),
  maxAgeMs: fc.integer({ min: 1, max: 400 }),
});

describe('the replay buffer', () => {
  it('replays exactly the kept events after any since-id, in order, within its bounds', () => {
    fc.assert(
      fc.property(arrivals, bounds, fc.integer({ min: -2, max: 250 }), fc.integer({ min: 0, max: 500 }), (steps, bound, since, later) => {
        const buffer = createReplayBuffer(bound);
        const added: { event: SequencedEvent; at: number }[] = [];
        let id = 0;
        let now = 0;
        for (const { idStep, pause } of steps) {
          id += idStep;
          now += pause;
          const event = { id: String(id), event: liveEvent('a', `ref-${id}`) };
          added.push({ event, at: now });
          buffer.add(event, now);
        }
        now += later;
        const kept = buffer.after('0', now);
        const k = kept.length;
        // What is kept is the newest k, in order, and nothing made up.
        expect(kept).toEqual(added.slice(added.length - k).map((a) => a.event));
        // Within the bounds: never above the caps, never an event older than maxAgeMs.
        const bytes = kept.reduce((sum, e) => sum + eventBytes(e.event), 0);
        expect(k).toBeLessThanOrEqual(bound.maxEvents);
        expect(bytes).toBeLessThanOrEqual(bound.maxBytes);
        expect(buffer.bytes()).toBe(bytes);
        if (k > 0) expect(now - added[added.length - k]!.at).toBeLessThanOrEqual(bound.maxAgeMs);
        // An event was dropped only when it was too old, or one more would have passed a cap: by time, up to the caps.
        if (k < added.length) {
          const next = added[added.length - k - 1]!;
          const tooOld = now - next.at > bound.maxAgeMs;
          expect(tooOld || k + 1 > bound.maxEvents || bytes + eventBytes(next.event.event) > bound.maxBytes).toBe(true);
        }
        // Any since-id: exactly the kept events after it, in order.
        const replay = buffer.after(String(Math.max(0, since)), now);
        expect(replay).toEqual(kept.filter((e) => BigInt(e.id) > BigInt(Math.max(0, since))));
        if (since < 0) expect(buffer.after(`-${-since}`, now)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('puts an event that arrives after a later one in its place by id, once', () => {
    const buffer = createReplayBuffer({ maxEvents: 10, maxBytes: 1_000_000, maxAgeMs: 1000 });
    for (const id of ['1', '3', '2', '3', '4']) buffer.add({ id, event: liveEvent('a', `ref-${id}`) }, 0);
    expect(buffer.after('1', 0).map((e) => e.id)).toEqual(['2', '3', '4']);
  });

  it('replays nothing for a Last-Event-ID that is no counter (text, a negative number, too many digits)', () => {
    const buffer = createReplayBuffer();
    buffer.add({ id: '1', event: liveEvent('a', 'r') }, 0);
    for (const since of ['abc', '-1', '1e3', '', ' 0', '9'.repeat(40)]) expect(buffer.after(since, 0)).toEqual([]);
  });
});
