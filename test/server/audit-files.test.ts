import { mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { lineHash } from '../../src/server/audit/audit-chain.ts';
import { searchFiles } from '../../src/server/trail/audit-file-search.ts';
import { lineEndsAt, linesBackward, readLinesForward } from '../../src/server/trail/audit-files.ts';

/**
 * Reading this instance's audit files (issue 34): every complete line, from either end, whatever its
 * length against the reader's chunks; a search that stops at its bound says so and goes on from there.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-audit-files-'));

/** Lines of printable text (no line end), some longer than the readers' 256 kB chunk. */
const linesArb = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: fc.string({ maxLength: 40 }).map((text) => text.replace(/\n/g, ' ')) },
    { weight: 1, arbitrary: fc.integer({ min: 200_000, max: 600_000 }).map((n) => 'x'.repeat(n)) },
  ),
  { maxLength: 12 },
);

describe('the audit files read from either end', () => {
  it('gives every complete line exactly once, last first or first first, never a last line without its line end', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(linesArb, fc.string({ maxLength: 10 }), async (lines, partial) => {
        const file = path.join(dir, `lines-${run++}`);
        const tail = partial.replace(/\n/g, ' ');
        const content = lines.map((line) => `${line}\n`).join('') + tail;
        writeFileSync(file, content);
        const size = Buffer.byteLength(content);
        const handle = await open(file, 'r');
        try {
          const backward: string[] = [];
          const bytes = Buffer.from(content);
          for await (const line of linesBackward(handle, size)) {
            backward.push(line.bytes.toString('utf8'));
            // Where it says the line is: its bytes, then its line end.
            expect(bytes.subarray(line.start, line.end).equals(Buffer.concat([line.bytes, Buffer.from('\n')]))).toBe(true);
          }
          expect(backward.reverse()).toEqual(lines);
          const forward: string[] = [];
          for (let start = 0; start < size; ) {
            const batch = await readLinesForward(handle, start, size, 64 * 1024);
            if (batch.length === 0) break;
            forward.push(...batch.map((line) => line.bytes.toString('utf8')));
            start = batch.at(-1)!.end;
          }
          expect(forward).toEqual(lines);
        } finally {
          await handle.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('where the indexer and the chain check go on from', () => {
  it('goes on only where the line read last still ends at its offset, unchanged: not in a file cut, rewritten or gone', async () => {
    const file = path.join(dir, 'go-on');
    const two = lineHash(Buffer.from('two'));
    writeFileSync(file, 'one\ntwo\nthree\n');
    expect(await lineEndsAt(file, 8, two)).toBe(true);
    expect(await lineEndsAt(file, 8, lineHash(Buffer.from('one')))).toBe(false);
    // An offset within a line, or before any: no line ends there.
    expect(await lineEndsAt(file, 7, two)).toBe(false);
    expect(await lineEndsAt(file, 0, two)).toBe(false);
    // Another line before it changes nothing; that line rewritten, or the file cut before its end, does.
    writeFileSync(file, 'ONE\ntwo\n');
    expect(await lineEndsAt(file, 8, two)).toBe(true);
    writeFileSync(file, 'one\nTWO\n');
    expect(await lineEndsAt(file, 8, two)).toBe(false);
    writeFileSync(file, 'one\ntw');
    expect(await lineEndsAt(file, 8, two)).toBe(false);
    expect(await lineEndsAt(path.join(dir, 'never-written'), 8, two)).toBe(false);
  });
});

describe('a search of the files without a database', () => {
  it('stops at its bound of lines, says how far back it got, and goes on from there to find exactly the lines a search without a bound finds', async () => {
    const file = path.join(dir, 'bounded', 'audit.jsonl');
    const log = createAuditLog(file);
    const start = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < 1000; i++) {
      await log.record({ time: new Date(start + i * 1000).toISOString(), kind: 'note', note: i % 7 === 0 ? 'seventh' : 'other' });
    }
    await log.close();
    const all = await searchFiles(file, 'app1', {}, { limit: 2000 }, { maxLines: 1_000_000, maxMs: 60_000 });
    const wanted = all.rows.filter((row) => row.detail === 'seventh').map((row) => row.hash);
    expect(wanted).toHaveLength(143);

    const found: string[] = [];
    let cursor: string | undefined;
    let requests = 0;
    do {
      const page = await searchFiles(
        file,
        'app1',
        { action: 'note' },
        { limit: 2000, ...(cursor ? { cursor } : {}) },
        { maxLines: 300, maxMs: 60_000 },
      );
      requests += 1;
      found.push(...page.rows.filter((row) => row.detail === 'seventh').map((row) => row.hash));
      if (page.next) expect(page.searched).toMatchObject({ lines: 300, complete: false, stoppedBy: 'lines' });
      else expect(page.searched.complete).toBe(true);
      expect(page.searched.reachedBack).toBeDefined();
      cursor = page.next;
    } while (cursor);
    expect(requests).toBe(4);
    expect(found).toEqual(wanted);
  });
});
