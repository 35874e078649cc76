import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { createAnswerGuard, SLICE_MS } from '../../src/server/answer/answer-guard.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';

/**
 * A large answer that arrives faster than it is read must not keep the event loop to itself: /healthz,
 * other lookups and the audit line an answer in parts waits for are served between its slices.
 */
describe('an answer read in slices (answer-guard.ts, SLICE_MS)', () => {
  it('attack: a 32 MB answer that arrives all at once leaves the event loop a turn while it is read, and passes on every byte', async () => {
    const picture = Buffer.alloc(24 * 1024 * 1024, 0x41).toString('base64');
    const body = Buffer.from(
      JSON.stringify({ status: 'success', data: { status: 'approved', identities: { passport: { type: 'base64', value: picture } } } }),
    );
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
    // Readable.from hands its chunks on in microtasks: read without turns, the whole body goes before any macrotask.
    const source = Readable.from(chunks, { objectMode: false });
    // No scan fed upstream of the guard: it tokenizes the body itself.
    const guard = createAnswerGuard({} as Parameters<typeof createAnswerGuard>[0], keySearch(['answer-turns-key-5c1e']));
    let turns = 0;
    let reading = true;
    const count = () => {
      if (!reading) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    source.pipe(guard);
    let passed = 0;
    for await (const chunk of guard) passed += (chunk as Buffer).length;
    reading = false;
    expect(passed).toBe(body.length);
    expect(turns).toBeGreaterThan(2);
  }, 60_000);

  it('holds up no chunk of an answer whose chunks come a turn of the loop apart, and still slices one that comes all at once', async () => {
    const body = Buffer.from(JSON.stringify({ status: 'success', data: { status: 'approved', filler: 'x'.repeat(12 * 1024) } }));
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 1024) chunks.push(body.subarray(at, at + 1024));
    /** Each chunk costs the loop half a slice of work where it is received, as the fed scan's tokenizing does. */
    const busy = () => {
      const until = performance.now() + SLICE_MS / 2;
      while (performance.now() < until);
    };
    /** How many of the guard's chunks were handed back only after a turn of the loop. */
    const heldUp = async (apart: boolean) => {
      const scan = new AnswerScan();
      const guard = createAnswerGuard({ scan } as unknown as Parameters<typeof createAnswerGuard>[0], keySearch(['answer-turns-key-5c1e']));
      guard.on('data', () => {});
      let held = 0;
      const pending: Promise<void>[] = [];
      for (const chunk of chunks) {
        if (apart) await new Promise((resolve) => setImmediate(resolve));
        busy();
        scan.write(chunk);
        let called = false;
        pending.push(
          new Promise<void>((resolve) =>
            guard.write(chunk, () => {
              called = true;
              resolve();
            }),
          ),
        );
        // A chunk handed back at once has its callback on the next tick; one held up, after a turn.
        await new Promise((resolve) => process.nextTick(resolve));
        if (!called) held++;
      }
      await Promise.all(pending);
      return held;
    };
    expect(await heldUp(true)).toBe(0);
    expect(await heldUp(false)).toBeGreaterThan(2);
  });
});
