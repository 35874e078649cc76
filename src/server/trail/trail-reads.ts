import { ApiFailure } from '../http/api-failure.ts';

/**
 * This instance's reads of its audit files at once, bounded, and shared fairly among the people asking.
 * A read of the files (a search, an export's page, a candidate's Activity, the names offered) scans up to
 * `FILE_BOUNDS` (two million lines, two seconds) of this process's time in small turns: unbounded, one
 * compliance user's 60 Activity requests at once over a 500,000-line trail took `/healthz` from 3 to
 * 276 ms and another user's lookup from 8 to 707 ms. Past `atOnce` a read waits its turn; the turns go
 * round the people waiting, one read each, so a user with many reads in line does not hold up another's
 * one. Past `maxWaiting` in line, or when the asker has gone, it is refused (503 `server_busy`, with a
 * wait) before it reads anything. The table's reads (DATABASE_URL) are the database's to bound.
 */
export interface TrailReads {
  /** Runs `read` once the asker's turn comes (none named: one anonymous line, as a test's or a tool's read). */
  run<T>(asker: Asker | undefined, read: () => Promise<T>): Promise<T>;
  /** Reads under way and waiting now (a test's and the metrics' view). */
  readonly counts: { running: number; waiting: number };
}

/** Who asks for a read: their rate limit's key, and the request's end (a read not yet begun is dropped then). */
export interface Asker {
  reader: string;
  signal?: AbortSignal;
}

export interface TrailReadBounds {
  atOnce: number;
  maxWaiting: number;
}

/** Two at once: one per core of a small machine, the rest of each core for the lookups. */
export const TRAIL_READ_BOUNDS: TrailReadBounds = { atOnce: 2, maxWaiting: 64 };

const BUSY_WAIT_SECONDS = 5;

export function trailBusy(): ApiFailure {
  return new ApiFailure(
    'server_busy',
    `The audit trail is being read by many people at once on this server. Try again in ${BUSY_WAIT_SECONDS} s.`,
    { retryAfterSeconds: BUSY_WAIT_SECONDS },
  );
}

interface Waiter {
  go: () => void;
}

export function createTrailReads(bounds: TrailReadBounds = TRAIL_READ_BOUNDS): TrailReads {
  let running = 0;
  let waiting = 0;
  // Each reader's line, in the order their turns come round (a Map keeps the order it was given).
  const lines = new Map<string, Waiter[]>();

  const next = () => {
    const first = lines.entries().next();
    if (running >= bounds.atOnce || first.done) return;
    const [reader, line] = first.value;
    // The reader goes to the back of the round, with what it has left.
    lines.delete(reader);
    const waiter = line.shift()!;
    if (line.length) lines.set(reader, line);
    waiting -= 1;
    running += 1;
    waiter.go();
  };

  // A reader who has gone (the request closed) leaves the line at once: it holds no place in it.
  const leave = (reader: string, waiter: Waiter) => {
    const line = lines.get(reader);
    const at = line?.indexOf(waiter) ?? -1;
    if (!line || at === -1) return false;
    line.splice(at, 1);
    if (!line.length) lines.delete(reader);
    waiting -= 1;
    return true;
  };

  const turn = (reader: string, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      if (waiting >= bounds.maxWaiting) return reject(trailBusy());
      const onAbort = () => {
        if (leave(reader, waiter)) reject(trailBusy());
      };
      const waiter: Waiter = {
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const line = lines.get(reader);
      if (line) line.push(waiter);
      else lines.set(reader, [waiter]);
      waiting += 1;
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  return {
    get counts() {
      return { running, waiting };
    },
    async run(asker, read) {
      if (asker?.signal?.aborted) throw trailBusy();
      if (running < bounds.atOnce && waiting === 0) running += 1;
      else await turn(asker?.reader ?? '', asker?.signal);
      try {
        return await read();
      } finally {
        running -= 1;
        next();
      }
    },
  };
}
