import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { createAnswerGuard } from '../../src/server/answer/answer-guard.ts';
import { readValue } from '../../src/server/answer/answer-value.ts';
import { StatusLevelReader } from '../../src/server/answer/status-level-stream.ts';
import { KEY_IN_ANSWER } from '../../src/server/answer/upstream-body.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { ListPageReader } from '../../src/server/answer/list-page-reader.ts';
import { readPiecesInTurns } from '../../src/server/answer/pieces-in-turns.ts';
import { eachInTurns, SLICE_MS } from '../../src/server/answer/turns.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';
import { countTurns } from '../support/event-loop-turns.ts';

/**
 * A large answer that arrives faster than it is read must not keep the event loop to itself: /healthz,
 * other lookups and the audit line an answer in parts waits for are served between its slices.
 */
/** The body's bytes in 64 KiB chunks, handed on in microtasks (Readable.from): all before any macrotask, unless read in turns. */
function arrivingAtOnce(body: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
  return Readable.from(chunks, { objectMode: false });
}

describe('an answer read in slices (turns.ts, SLICE_MS)', () => {
  it('attack: a list page of 20 000 small records arriving all at once leaves the event loop turns while it is read (readValue)', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      status: 'waiting',
      refId: `r-${i}`,
      waitingDate: '2026-01-01T00:00:00.000Z',
    }));
    const body = Buffer.from(JSON.stringify({ status: 'success', data: { records, total: records.length } }));
    const failure = new ApiFailure('upstream_error', 'not read');
    const turnsTaken = countTurns();
    const read = await readValue(
      Object.assign(arrivingAtOnce(body), { complete: true, headers: {}, statusCode: 200 }),
      { maxResponseBytes: 64 * 1024 * 1024, keys: keySearch(['answer-turns-key-5c1e']) },
      (path) => new ListPageReader(path),
      { notJson: failure, incomplete: failure },
    );
    const turns = turnsTaken();
    expect(read.ok && (read.value as { data: { records: unknown[] } }).data.records).toHaveLength(20_000);
    // Tokenizing 1.2 MB of small tokens takes far longer than a slice: read in one go, the loop got no turn.
    expect(turns).toBeGreaterThan(2);
  }, 60_000);

  it('attack: a 32 MB answer that arrives all at once leaves the event loop a turn while it is read, and passes on every byte', async () => {
    const picture = Buffer.alloc(24 * 1024 * 1024, 0x41).toString('base64');
    const body = Buffer.from(
      JSON.stringify({ status: 'success', data: { status: 'approved', identities: { passport: { type: 'base64', value: picture } } } }),
    );
    // No scan fed upstream of the guard: it tokenizes the body itself.
    const guard = createAnswerGuard({} as Parameters<typeof createAnswerGuard>[0], keySearch(['answer-turns-key-5c1e']));
    const turnsTaken = countTurns();
    arrivingAtOnce(body).pipe(guard);
    let passed = 0;
    for await (const chunk of guard) passed += (chunk as Buffer).length;
    const turns = turnsTaken();
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

describe('items read in turns (turns.ts, eachInTurns)', () => {
  it('reads every item in order, and gives the loop turns when the items take longer than a slice', async () => {
    const read: number[] = [];
    const turnsTaken = countTurns();
    await eachInTurns(
      Array.from({ length: 640 }, (_, i) => i),
      (item) => {
        read.push(item);
        const until = performance.now() + SLICE_MS / 32;
        while (performance.now() < until);
      },
    );
    expect(turnsTaken()).toBeGreaterThan(2);
    expect(read).toEqual(Array.from({ length: 640 }, (_, i) => i));
  });
});

describe('a body read in pieces, in turns (pieces-in-turns.ts)', () => {
  it('reads every byte once in order, hands each chunk on whole after its pieces, and ends after the last, however slow the pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 40_000 }), { maxLength: 6 }),
        fc.double({ min: 0, max: SLICE_MS, noNaN: true }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        async (arrays, pieceMs, holds) => {
          const chunks = arrays.map((array) => Buffer.from(array));
          const source = new PassThrough();
          const pieces: Buffer[] = [];
          const handed: Buffer[] = [];
          let unscannedHandedOn = false;
          let i = 0;
          const ended = new Promise<void>((resolve) =>
            readPiecesInTurns(source, {
              piece: (piece) => {
                pieces.push(Buffer.from(piece));
                const until = performance.now() + pieceMs;
                while (performance.now() < until);
              },
              chunk: (chunk) => {
                handed.push(chunk);
                if (Buffer.concat(pieces).length !== Buffer.concat(handed).length) unscannedHandedOn = true;
                // Backpressure now and then: the source stays paused until the reader asks for more.
                const more = holds[i++ % holds.length] ?? true;
                if (!more) setImmediate(() => source.resume());
                return more;
              },
              end: resolve,
            }),
          );
          for (const chunk of chunks) source.write(chunk);
          source.end();
          await ended;
          expect(Buffer.concat(pieces)).toEqual(Buffer.concat(chunks));
          expect(handed).toEqual(chunks);
          expect(unscannedHandedOn).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it('lets a light answer go first: its steps are never queued behind the heavy answers that wait', async () => {
    const heavy = new PassThrough();
    let heavyPieces = 0;
    const heavyEnded = new Promise<void>((resolve) =>
      readPiecesInTurns(heavy, {
        piece: () => {
          heavyPieces++;
          const until = performance.now() + SLICE_MS;
          while (performance.now() < until);
        },
        chunk: () => true,
        end: resolve,
      }),
    );
    heavy.end(Buffer.alloc(4 * 1024 * 1024, 0x20));
    while (heavyPieces < 4) await new Promise((resolve) => setImmediate(resolve));
    const light = new PassThrough();
    const atLightStart = heavyPieces;
    const lightEnded = new Promise<number>((resolve) =>
      readPiecesInTurns(light, { piece: () => {}, chunk: () => true, end: () => resolve(heavyPieces - atLightStart) }),
    );
    light.end(Buffer.from('{"status":"success"}'));
    // Each of the heavy pieces takes a whole slice: the light body is read within a turn or two of them.
    expect(await lightEnded).toBeLessThanOrEqual(3);
    heavy.destroy();
    void heavyEnded;
  });
});

describe('an answer read whole for its kept fields, in pieces (readValue)', () => {
  it('builds what one read of the whole body builds, and refuses what it refuses (past the bound, the key), however the chunks come', async () => {
    const key = 'answer-pieces-key-4d7e';
    const member = fc.constantFrom('status', 'refId', 'waitingDate', 'approvedDate', 'identities', 'notes');
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(member, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: -64, max: 64 }),
        async (data, withKey, sizes, slack) => {
          // Enough small tokens that the body is read in several pieces, the key anywhere among them.
          const filler = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`a${i}`, withKey && i === 1000 ? key : 'v']));
          const body = Buffer.from(JSON.stringify({ status: 'success', data: { ...data, filler } }));
          const chunks: Buffer[] = [];
          for (let at = 0; at < body.length; ) {
            const size = sizes[chunks.length % sizes.length]!;
            chunks.push(body.subarray(at, at + size));
            at += size;
          }
          const maxResponseBytes = body.length + slack;
          const scan = new AnswerScan();
          const whole = new StatusLevelReader(scan.path);
          scan.add(whole);
          scan.write(body);
          scan.end();
          const failure = new ApiFailure('upstream_error', 'refused');
          const read = await readValue(
            Object.assign(Readable.from(chunks, { objectMode: false }), { complete: true, headers: {}, statusCode: 200 }),
            { maxResponseBytes, keys: keySearch([key]) },
            (path) => new StatusLevelReader(path),
            { notJson: failure, incomplete: failure, tooLarge: failure },
          );
          // Past the bound it is refused, as too large unless the key was seen before the bound was reached.
          if (body.length > maxResponseBytes) expect(!read.ok && (withKey || read.failure.code === 'response_too_large')).toBe(true);
          else if (withKey) expect(read).toEqual({ ok: false, failure: KEY_IN_ANSWER });
          else if (whole.tooLarge) expect(read).toEqual({ ok: false, failure });
          else expect(read).toEqual({ ok: true, value: whole.value() });
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
