import { ApiFailure } from '../http/api-failure.ts';

/**
 * An answer in parts is read whole before its first part is sent (its record must be known to be whole),
 * so it holds its bytes meanwhile: the first part as written and the pictures decoded, about the size of
 * the service's answer. This bounds their sum across every answer being built at once; past it an answer
 * is refused with 503 and Retry-After rather than let a few large records take the process down.
 */

/** How long a browser is told to wait before asking again once the bound is reached. */
const RETRY_AFTER_SECONDS = 5;

export const PARTS_BUSY = new ApiFailure(
  'server_busy',
  'This server is building as many large answers as it can hold at once. Try again in a few seconds.',
  { retryAfterSeconds: RETRY_AFTER_SECONDS },
);

/** One person's answers hold their share of the bound already (OWN_SHARE). */
export const OWN_SHARE_BUSY = new ApiFailure(
  'server_busy',
  'Your other large answers still being sent hold all the room one person may have on this server. Try again once they have arrived.',
  { retryAfterSeconds: RETRY_AFTER_SECONDS },
);

/**
 * The part of the bound one person's answers may hold together, past their first: 4 answers of 64 MB read
 * slowly by one user (200 kB/s each) held the whole 256 MiB for minutes, and every other user's large
 * answer was refused 503 meanwhile (red team). A person's first answer may take up to the whole bound,
 * so that a record larger than the share is still answered to someone who asks for nothing else.
 */
const OWN_SHARE = 1 / 4;

/**
 * One answer's share: `reserve` what it is expected to hold, at once, before reading (so that answers
 * admitted are built whole and the others refused at once, rather than all starting and all running out);
 * `take` before holding more bytes (from the reservation first; false: the bound is reached); `release`
 * once sent or dropped.
 */
export interface PartsHolding {
  reserve(bytes: number): boolean;
  take(bytes: number): boolean;
  release(): void;
  /** Why the last `reserve` or `take` was refused: the bound (PARTS_BUSY) or the person's share of it (OWN_SHARE_BUSY). */
  readonly refusal: ApiFailure;
}

export interface PartsBudget {
  /** An answer's holding, counted to `owner` (the person it is for: the rate limit's key) in the person's share. */
  hold(owner?: string): PartsHolding;
  /** Bytes held now, over every answer. */
  held(): number;
}

/** `maxBytes`: PARTS_MEMORY_BYTES, whose default the configuration's schema holds (config-schema.ts). */
export function createPartsBudget(maxBytes: number): PartsBudget {
  let total = 0;
  // What each person's answers hold now; a person holding nothing is not kept.
  const owners = new Map<string, number>();
  const share = Math.floor(maxBytes * OWN_SHARE);
  const count = (owner: string, bytes: number) => {
    const now = (owners.get(owner) ?? 0) + bytes;
    if (now > 0) owners.set(owner, now);
    else owners.delete(owner);
  };
  return {
    held: () => total,
    hold(owner = '') {
      let mine = 0;
      let reserved = 0;
      let refusal = PARTS_BUSY;
      const add = (bytes: number) => {
        // What the person's other answers hold: their first may grow to the whole bound, a next only within the share.
        const theirs = owners.get(owner) ?? 0;
        if (theirs > mine && theirs + bytes > share) refusal = OWN_SHARE_BUSY;
        else if (total + bytes > maxBytes) refusal = PARTS_BUSY;
        else {
          total += bytes;
          mine += bytes;
          count(owner, bytes);
          return true;
        }
        return false;
      };
      return {
        get refusal() {
          return refusal;
        },
        reserve(bytes) {
          if (!add(bytes)) return false;
          reserved += bytes;
          return true;
        },
        take(bytes) {
          const fromReserve = Math.min(bytes, reserved);
          reserved -= fromReserve;
          return fromReserve === bytes || add(bytes - fromReserve);
        },
        release() {
          total -= mine;
          count(owner, -mine);
          mine = reserved = 0;
        },
      };
    },
  };
}
