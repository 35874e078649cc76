import type { SequencedEvent } from './live-hub.ts';

/**
 * What a reconnecting page missed, kept by time (issue 32): every event younger than `maxAgeMs`,
 * whatever the rate, but never more than `maxEvents` nor more than `maxBytes` of events (their JSON, as
 * the stream sends them), so that a flood of deliveries cannot grow it without bound: past either cap the
 * oldest go first. The same bounds hold for the buffer in this process and for the one in Redis
 * (replay-redis.ts), which every instance shares.
 */
export interface ReplayBounds {
  maxAgeMs: number;
  maxEvents: number;
  maxBytes: number;
}

/** Ten minutes at any rate up to 200 deliveries a second (the busy day), and 64 MiB at most. */
export const REPLAY_BOUNDS: ReplayBounds = { maxAgeMs: 10 * 60_000, maxEvents: 120_000, maxBytes: 64 * 1024 * 1024 };

interface Kept {
  event: SequencedEvent;
  seq: bigint;
  at: number;
  bytes: number;
}

export interface ReplayBuffer {
  /** Keeps an event; one that arrives out of order (another instance's, later on the wire) takes its place by id. */
  add(event: SequencedEvent, now?: number): void;
  /** The kept events after `since` (a `Last-Event-ID`), in id order; none for an id that is not one of ours. */
  after(since: string, now?: number): SequencedEvent[];
  size(): number;
  /** The bytes of the kept events, as `maxBytes` counts them. */
  bytes(): number;
}

/** An id as sent: a decimal counter. Anything else (a header a browser or a script made up) is no id. */
export function parseEventId(id: string): bigint | undefined {
  return /^\d{1,30}$/.test(id) ? BigInt(id) : undefined;
}

/** What an event weighs against `maxBytes`: its JSON's length, the text the stream and Redis hold of it. */
export function eventBytes(event: SequencedEvent['event']): number {
  return Buffer.byteLength(JSON.stringify(event));
}

export function createReplayBuffer(bounds: ReplayBounds = REPLAY_BOUNDS): ReplayBuffer {
  const kept: Kept[] = [];
  let total = 0;
  const trim = (now: number) => {
    let drop = 0;
    let bytes = total;
    const over = () => kept.length - drop > bounds.maxEvents || bytes > bounds.maxBytes || now - kept[drop]!.at > bounds.maxAgeMs;
    while (drop < kept.length && over()) bytes -= kept[drop++]!.bytes;
    if (drop === 0) return;
    kept.splice(0, drop);
    total = bytes;
  };
  return {
    add(event, now = Date.now()) {
      const seq = parseEventId(event.id);
      if (seq === undefined) return;
      let index = kept.length;
      while (index > 0 && kept[index - 1]!.seq > seq) index--;
      if (index > 0 && kept[index - 1]!.seq === seq) return;
      const bytes = eventBytes(event.event);
      kept.splice(index, 0, { event, seq, at: now, bytes });
      total += bytes;
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
    bytes: () => total,
  };
}
