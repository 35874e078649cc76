import { ApiFailure } from '../http/api-failure.ts';
import { FairTurns, TurnRefused } from '../state/fair-turns.ts';

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
  /** Reads under way and waiting now (a test's view). */
  readonly counts: { running: number; waiting: number };
}

/** Who asks for a read: their rate limit's key, and the request's end (a read not yet begun is dropped then). */
export interface Asker {
  reader: string;
  signal?: AbortSignal;
  /** A read of a download already begun (an export's page past its first): it waits, however long the line. */
  begun?: boolean;
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

export function createTrailReads(bounds: TrailReadBounds = TRAIL_READ_BOUNDS): TrailReads {
  const turns = new FairTurns(bounds.atOnce, bounds.maxWaiting);
  return {
    get counts() {
      return { running: turns.inUse, waiting: turns.waiting };
    },
    async run(asker, read) {
      let release: () => void;
      try {
        // Without an asker, one anonymous line (a test's or a tool's read).
        release = await turns.take(asker?.reader ?? '', asker?.signal, asker?.begun === true);
      } catch (error) {
        if (error instanceof TurnRefused) throw trailBusy();
        throw error;
      }
      try {
        return await read();
      } finally {
        release();
      }
    },
  };
}
