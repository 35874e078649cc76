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

/** One person's answers hold their share of the bound already, while the bound is contended (OWN_SHARE). */
export const OWN_SHARE_BUSY = new ApiFailure(
  'server_busy',
  'Your other candidates with large pictures are still loading, and this server is busy: this one can come once they have loaded. Try again in 5 s.',
  { retryAfterSeconds: RETRY_AFTER_SECONDS },
);

/**
 * The part of the bound one person's answers may hold together, past their first, once the bound is half
 * taken: 4 answers of 64 MB read slowly by one user (200 kB/s each) held the whole 256 MiB for minutes, and
 * every other user's large answer was refused 503 meanwhile (red team). A person's first answer (the
 * oldest still held) may take up to the whole bound, so that a record larger than the share is still
 * answered to someone who asks for nothing else; and on a server with room to spare the share does not
 * apply, so that a reviewer's second tab of a large candidate is not refused for nothing.
 */
const OWN_SHARE = 1 / 4;
/** The share applies once this part of the bound is held. */
const CONTENDED = 1 / 2;

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
  // Each person's answers still held, oldest first, with what each holds; a person holding none is not kept.
  const owners = new Map<string, Map<object, number>>();
  const share = Math.floor(maxBytes * OWN_SHARE);
  const note = (owner: string, holding: object, bytes: number | undefined) => {
    const theirs = owners.get(owner) ?? new Map<object, number>();
    if (bytes === undefined) theirs.delete(holding);
    else theirs.set(holding, bytes);
    if (theirs.size > 0) owners.set(owner, theirs);
    else owners.delete(owner);
  };
  /** Whether `holding` may not take `bytes` more for its person's share: not their oldest, over the share, the bound contended. */
  const overShare = (owner: string, holding: object, bytes: number) => {
    const theirs = owners.get(owner);
    if (!theirs || theirs.keys().next().value === holding) return false;
    const held = [...theirs.values()].reduce((sum, one) => sum + one, 0);
    return held + bytes > share && total + bytes > maxBytes * CONTENDED;
  };
  return {
    held: () => total,
    hold(owner = '') {
      const self = {};
      let mine = 0;
      let reserved = 0;
      let refusal = PARTS_BUSY;
      note(owner, self, 0);
      const add = (bytes: number) => {
        if (overShare(owner, self, bytes)) refusal = OWN_SHARE_BUSY;
        else if (total + bytes > maxBytes) refusal = PARTS_BUSY;
        else {
          total += bytes;
          mine += bytes;
          note(owner, self, mine);
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
          note(owner, self, undefined);
          mine = reserved = 0;
        },
      };
    },
  };
}
