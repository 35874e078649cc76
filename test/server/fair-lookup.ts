import http from 'node:http';
import { vi } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { APP_HEADERS } from './http.ts';

/**
 * What the tests of answers sharing the event loop share (parts-fair, status-fair): another user's plain
 * lookup, and the bytes of the service's answers the server scanned while it was answered. Counted in
 * bytes scanned, not in wall-clock time.
 */

/** A plain lookup of `refId` at `port` as `who`, its body read whole; its status. */
export function plainLookup(port: number, who: Record<string, string>, refId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(
        {
          host: '127.0.0.1',
          port,
          path: `/api/candidates/refId/${refId}`,
          agent: false,
          headers: { ...APP_HEADERS, accept: 'application/json', ...who },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      )
      .on('error', reject);
  });
}

/**
 * The clock the slices are cut by (turns.ts) and the pieces sized by (pieces-in-turns.ts), while a test
 * measures: the real one, plus 1 ms for every 4 KiB of answers scanned. A slice of the loop is 4 ms, so
 * what one scans was 45 to 160 kB by the real clock alone, as the machine was fast or loaded, and a bound
 * in bytes held or not by the machine's speed (once 393 988 bytes against 387 263); with this, a slice
 * scans about 16 KiB (and a piece) however fast the machine, and less when it is slow. What is measured is what the
 * code does with its slices and pieces, not how fast this machine scans.
 */
const MS_PER_BYTE_SCANNED = 1 / 4096;

/**
 * The bytes of the service's answers the server scanned while `who`'s plain lookup of refId `light` at
 * `port` was answered, once `heavyReads` had begun to be scanned (every answer's bytes together), by the
 * clock above; then what they came to.
 */
export async function scannedDuringLookup<T>(
  port: number,
  who: Record<string, string>,
  heavyReads: () => T,
): Promise<{ during: number; status: number; heavy: Awaited<T> }> {
  let scanned = 0;
  const write = AnswerScan.prototype.write;
  const spy = vi.spyOn(AnswerScan.prototype, 'write').mockImplementation(function (this: AnswerScan, chunk: Buffer) {
    scanned += chunk.length;
    return write.call(this, chunk);
  });
  const realNow = performance.now.bind(performance);
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + scanned * MS_PER_BYTE_SCANNED);
  try {
    const heavyRead = heavyReads();
    // Under way: the heavy answers have begun to be read.
    while (scanned < 64 * 1024) await new Promise((resolve) => setImmediate(resolve));
    const before = scanned;
    const status = await plainLookup(port, who, 'light');
    const during = scanned - before;
    return { during, status, heavy: await heavyRead };
  } finally {
    clock.mockRestore();
    spy.mockRestore();
  }
}
