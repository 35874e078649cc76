import { finished } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { AnswerGuardError, createAnswerGuard } from '../../src/server/answer/answer-guard.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { cutAt } from '../support/cut-at.ts';

/**
 * The guard passes on what the key search, in the answer's one scan, has cleared (answer-guard.ts,
 * key-watch.ts's `clearThrough`): whatever the cuts, no byte of a key is ever passed on, and an answer
 * without one is passed on exactly. The scan is either the guard's own or fed ahead of
 * it where the body is received (archive-watch.ts), by up to three chunks.
 */
const KEY = 'guard-property-key-7c1e';
const letters = fc.string({ unit: fc.constantFrom(...'ABCDEFabcdef0123456789+/'.split('')), maxLength: 400 });

async function through(chunks: Buffer[], fedAhead: number | undefined) {
  const scan = fedAhead === undefined ? undefined : new AnswerScan();
  const guard = createAnswerGuard(scan ? ({ scan } as Parameters<typeof createAnswerGuard>[0]) : ({} as never), keySearch([KEY]));
  const out: Buffer[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk));
  let scanned = 0;
  const feedTo = (count: number) => {
    for (; scan && scanned < Math.min(count, chunks.length); scanned++) scan.write(chunks[scanned]!);
  };
  for (const [i, chunk] of chunks.entries()) {
    feedTo(i + 1 + (fedAhead ?? 0));
    guard.write(chunk);
  }
  feedTo(chunks.length);
  scan?.end();
  guard.end();
  const error = await finished(guard).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { out: Buffer.concat(out), error };
}

describe('the answer guard passes on what the key search cleared, never a byte of a key (property)', () => {
  it('any body, any cuts, its own scan or one fed ahead: a key is refused with nothing of it passed on; no key, every byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        letters,
        letters,
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        async (before, after, withKey, cuts, fedAhead) => {
          const body = Buffer.from(`{"status":"success","data":{"status":"approved","a":"${before}${withKey ? KEY : ''}${after}","b":1}}`);
          const { out, error } = await through(cutAt(body, cuts), fedAhead);
          expect(body.subarray(0, out.length).equals(out)).toBe(true);
          if (!withKey) {
            expect(error).toBeUndefined();
            expect(out.length).toBe(body.length);
            return;
          }
          expect(error).toBeInstanceOf(AnswerGuardError);
          expect((error as AnswerGuardError).problem).toBe('key_reflected');
          expect(out.length).toBeLessThanOrEqual(body.indexOf(KEY));
        },
      ),
      { numRuns: 1500 },
    );
    // 1,500 runs: about 20 s on a machine whose two cores had 18 processes waiting (a CI run beside four
    // others' tests), against the project's 20 s. A bound for a hang, not a speed.
  }, 90_000);

  it('passes on at once all of a chunk but the bytes that could start a key, so the answer’s first bytes are not kept for the next chunk', async () => {
    const body = Buffer.from(`{"status":"success","data":{"a":"${'x'.repeat(2000)}`);
    const keys = keySearch([KEY]);
    const guard = createAnswerGuard({} as never, keys);
    const out: Buffer[] = [];
    guard.on('data', (chunk: Buffer) => out.push(chunk));
    await new Promise((resolve) => guard.write(body, resolve));
    // The longest needle: the key's base64 forms (key-watch.ts).
    expect(Buffer.concat(out).equals(body.subarray(0, body.length - (keys.needles.longest - 1)))).toBe(true);
    guard.destroy();
  });
});
