import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../src/server/http/api-failure.ts';
import { createTrailReads } from '../../src/server/trail/trail-reads.ts';

/** This instance's reads of its audit files at once: bounded, in turns round the people asking, the line bounded. */

/** A read the test ends when it likes, noting when it began. */
function heldRead(log: string[], name: string) {
  let end = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    read: async () => {
      log.push(name);
      await ended;
      return name;
    },
    end,
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the reads of the audit files at once', () => {
  it('runs at most atOnce; a reader with many in line takes one turn in each round, so a later reader goes next', async () => {
    const reads = createTrailReads({ atOnce: 2, maxWaiting: 64 });
    const began: string[] = [];
    const ana = Array.from({ length: 6 }, (_, i) => heldRead(began, `ana${i}`));
    const dave = heldRead(began, 'dave');
    const done = [...ana.map((held) => reads.run({ reader: 'ana' }, held.read)), reads.run({ reader: 'dave' }, dave.read)];
    await turn();
    expect(began).toEqual(['ana0', 'ana1']);
    expect(reads.counts).toEqual({ running: 2, waiting: 5 });
    ana[0]!.end();
    await turn();
    // Ana's next, then Dave's one, then Ana's again: one each in turn.
    expect(began).toEqual(['ana0', 'ana1', 'ana2']);
    ana[1]!.end();
    await turn();
    expect(began.at(-1)).toBe('dave');
    for (const held of [...ana, dave]) held.end();
    expect(await Promise.all(done)).toEqual(['ana0', 'ana1', 'ana2', 'ana3', 'ana4', 'ana5', 'dave']);
    expect(reads.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a read past maxWaiting in line (503 server_busy, with a wait) before it reads anything', async () => {
    const reads = createTrailReads({ atOnce: 1, maxWaiting: 2 });
    const began: string[] = [];
    const held = [0, 1, 2].map((i) => heldRead(began, `r${i}`));
    const done = held.map((one) => reads.run({ reader: 'ana' }, one.read));
    const refused = reads.run({ reader: 'dave' }, heldRead(began, 'dave').read);
    const failure = await refused.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({ code: 'server_busy', retryAfterSeconds: 5 });
    for (const one of held) one.end();
    await Promise.all(done);
    expect(began).toEqual(['r0', 'r1', 'r2']);
  });

  it("an export's page past its first (begun) waits however long the line: refused, its download would be cut short", async () => {
    const reads = createTrailReads({ atOnce: 1, maxWaiting: 1 });
    const began: string[] = [];
    const first = heldRead(began, 'first');
    const running = reads.run({ reader: 'ana' }, first.read);
    const waiting = heldRead(began, 'waiting');
    const inLine = reads.run({ reader: 'sam' }, waiting.read);
    await turn();
    // The line is full: a new read is refused, a begun download's next page waits.
    expect(await reads.run({ reader: 'dave' }, heldRead(began, 'new').read).catch((error: unknown) => error)).toMatchObject({
      code: 'server_busy',
    });
    const page = heldRead(began, 'page');
    const next = reads.run({ reader: 'lena', begun: true }, page.read);
    for (const one of [first, waiting, page]) one.end();
    await Promise.all([running, inLine, next]);
    expect(began).toEqual(['first', 'waiting', 'page']);
  });

  it('a reader who has gone leaves the line at once, holding no place in it, and its read never begins', async () => {
    const reads = createTrailReads({ atOnce: 1, maxWaiting: 1 });
    const began: string[] = [];
    const first = heldRead(began, 'first');
    const running = reads.run({ reader: 'ana' }, first.read);
    const gone = new AbortController();
    const left = reads.run({ reader: 'dave', signal: gone.signal }, heldRead(began, 'dave').read).catch((error: unknown) => error);
    await turn();
    expect(reads.counts).toEqual({ running: 1, waiting: 1 });
    gone.abort();
    expect(await left).toMatchObject({ code: 'server_busy' });
    expect(reads.counts).toEqual({ running: 1, waiting: 0 });
    // Its place is free: another may wait.
    const next = heldRead(began, 'next');
    const after = reads.run({ reader: 'sam' }, next.read);
    first.end();
    next.end();
    await Promise.all([running, after]);
    expect(began).toEqual(['first', 'next']);
  });

  it('a failed read frees its turn', async () => {
    const reads = createTrailReads({ atOnce: 1, maxWaiting: 4 });
    await expect(reads.run(undefined, async () => Promise.reject(new Error('disk')))).rejects.toThrow('disk');
    expect(await reads.run(undefined, async () => 'read')).toBe('read');
    expect(reads.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('property: whatever arrives and whatever order reads end in, never more than atOnce run, every read not refused runs once, and a reader waits at most one turn of each other reader in line before its next', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.record({ reader: fc.constantFrom('a', 'b', 'c', 'd'), endAfter: fc.nat({ max: 5 }) }), { minLength: 1, maxLength: 30 }),
        async (atOnce, asked) => {
          const reads = createTrailReads({ atOnce, maxWaiting: 1000 });
          let running = 0;
          let most = 0;
          const began: string[] = [];
          const done = asked.map(({ reader, endAfter }) =>
            reads.run({ reader }, async () => {
              began.push(reader);
              running += 1;
              most = Math.max(most, running);
              for (let i = 0; i < endAfter; i++) await turn();
              running -= 1;
              return reader;
            }),
          );
          expect(await Promise.all(done)).toEqual(asked.map(({ reader }) => reader));
          expect(most).toBeLessThanOrEqual(atOnce);
          expect(began).toHaveLength(asked.length);
          // Past the first atOnce, turns go round: between two of one reader's, each other reader in line has at most one.
          const readers = new Set(asked.map(({ reader }) => reader));
          for (const reader of readers) {
            const places = began.flatMap((name, i) => (name === reader && i >= atOnce ? [i] : []));
            for (let k = 1; k < places.length; k++) {
              const between = began.slice(places[k - 1]! + 1, places[k]!);
              expect(new Set(between).size).toBe(between.length);
            }
          }
          expect(reads.counts).toEqual({ running: 0, waiting: 0 });
        },
      ),
      { numRuns: 200 },
    );
  });
});
