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
}

export interface PartsBudget {
  hold(): PartsHolding;
  /** Bytes held now, over every answer. */
  held(): number;
}

/** `maxBytes`: PARTS_MEMORY_BYTES, whose default the configuration's schema holds (config-schema.ts). */
export function createPartsBudget(maxBytes: number): PartsBudget {
  let total = 0;
  return {
    held: () => total,
    hold() {
      let mine = 0;
      let reserved = 0;
      const add = (bytes: number) => {
        if (total + bytes > maxBytes) return false;
        total += bytes;
        mine += bytes;
        return true;
      };
      return {
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
          mine = reserved = 0;
        },
      };
    },
  };
}
