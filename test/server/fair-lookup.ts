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
 * The bytes of the service's answers the server scanned while `who`'s plain lookup of refId `light` at
 * `port` was answered, once `heavyReads` had begun to be scanned (every answer's bytes together); then
 * what they came to.
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
  try {
    const heavyRead = heavyReads();
    // Under way: the heavy answers have begun to be read.
    while (scanned < 64 * 1024) await new Promise((resolve) => setImmediate(resolve));
    const before = scanned;
    const status = await plainLookup(port, who, 'light');
    const during = scanned - before;
    return { during, status, heavy: await heavyRead };
  } finally {
    spy.mockRestore();
  }
}
