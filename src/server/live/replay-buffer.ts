import type { SequencedEvent } from './live-hub.ts';

/**
 * What a reconnecting page missed: the last events, bounded by count and by age. It keeps at least the
 * last `minCount` events and every event younger than `maxAgeMs`, but never more than `hardCap`, so that
 * a burst of deliveries cannot grow it without bound.
 */
export interface ReplayBounds {
  minCount: number;
  maxAgeMs: number;
  hardCap: number;
}

export const REPLAY_BOUNDS: ReplayBounds = { minCount: 1000, maxAgeMs: 10 * 60_000, hardCap: 5000 };

interface Kept {
  event: SequencedEvent;
  seq: bigint;
  at: number;
}

export interface ReplayBuffer {
  /** Keeps an event; one that arrives out of order (another instance's, later on the wire) takes its place by id. */
  add(event: SequencedEvent, now?: number): void;
  /** The kept events after `since` (a `Last-Event-ID`), in id order; none for an id that is not one of ours. */
  after(since: string, now?: number): SequencedEvent[];
  size(): number;
}

/** An id as sent: a decimal counter. Anything else (a header a browser or a script made up) is no id. */
export function parseEventId(id: string): bigint | undefined {
  return /^\d{1,30}$/.test(id) ? BigInt(id) : undefined;
}

export function createReplayBuffer(bounds: ReplayBounds = REPLAY_BOUNDS): ReplayBuffer {
  const kept: Kept[] = [];
  const trim = (now: number) => {
    let drop = Math.max(0, kept.length - bounds.hardCap);
    while (kept.length - drop > bounds.minCount && now - kept[drop]!.at > bounds.maxAgeMs) drop++;
    if (drop > 0) kept.splice(0, drop);
  };
  return {
    add(event, now = Date.now()) {
      const seq = parseEventId(event.id);
      if (seq === undefined) return;
      let index = kept.length;
      while (index > 0 && kept[index - 1]!.seq > seq) index--;
      if (index > 0 && kept[index - 1]!.seq === seq) return;
      kept.splice(index, 0, { event, seq, at: now });
      trim(now);
    },
    after(since, now = Date.now()) {
      trim(now);
      const seq = parseEventId(since);
      if (seq === undefined) return [];
      let index = kept.length;
      while (index > 0 && kept[index - 1]!.seq > seq) index--;
      return kept.slice(index).map((entry) => entry.event);
    },
    size: () => kept.length,
  };
}
