/**
 * What this instance's event streams hold unsent, together, bounded. Each stream is cut past its own
 * bound (event-stream.ts `maxBufferedBytes`, 1 MiB), but 2,000 streams that never read (400 users, five
 * each) held a burst of deliveries each under that bound, and the process grew to 1.9 to 2.6 GB. Past the
 * budget the stream furthest behind is cut (its browser reconnects with `Last-Event-ID` and is replayed
 * what it missed, or told to read the queue again), then the next, until what is held is under it again.
 * A stream that reads keeps nothing unsent, so it is never the one cut while another lags.
 */
export interface StreamBudget<T> {
  /** A stream's unsent bytes, as they are now; answers the streams to cut, furthest behind first, to come back under the budget. */
  note(stream: T, unsent: number): T[];
  /** The stream has ended: what it held is no longer counted. */
  forget(stream: T): void;
  /** Unsent bytes of every stream, as last noted. */
  readonly total: number;
}

export function createStreamBudget<T>(maxTotalBytes: number): StreamBudget<T> {
  // Only the streams holding something unsent: the search for the furthest behind reads those alone.
  const held = new Map<T, number>();
  let total = 0;
  const forget = (stream: T) => {
    total -= held.get(stream) ?? 0;
    held.delete(stream);
  };
  return {
    note(stream, unsent) {
      forget(stream);
      if (unsent > 0) held.set(stream, unsent);
      total += unsent;
      const cut: T[] = [];
      while (total > maxTotalBytes) {
        let furthest: T | undefined;
        let most = 0;
        for (const [one, bytes] of held) {
          if (bytes > most) [furthest, most] = [one, bytes];
        }
        if (furthest === undefined) break;
        forget(furthest);
        cut.push(furthest);
      }
      return cut;
    },
    forget,
    get total() {
      return total;
    },
  };
}
