import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATUS_LEVEL_FIELDS } from '../../src/kyc/contract/schema.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { type Scan, watchWillArchiveAt } from '../../src/server/answer/archive-watch.ts';
import { KeyWatch, keySearch } from '../../src/server/answer/key-watch.ts';
import { StatusPart } from '../../src/server/answer/status-part.ts';
import { StatusLevelReader } from '../../src/server/answer/status-level-stream.ts';
import { statusLevelValue } from '../../src/server/answer/status-level-value.ts';
import { anyCodePoint } from '../support/any-code-point.ts';
import { cutAt } from '../support/cut-at.ts';

/**
 * The readers of the one scan of an answer (answer-scan.ts), against what the browser or JSON.parse
 * makes of the same bytes, however they are cut into chunks.
 */

const cuts = fc.array(fc.nat(), { maxLength: 8 });
const json = fc.jsonValue({ maxDepth: 3, stringUnit: anyCodePoint });
/** With `…Date` fields that are a status's date only when the record's status is theirs (`on_hold`, `dob`). */
const fieldNames = fc.constantFrom(
  ...STATUS_LEVEL_FIELDS,
  'identities',
  'customFields',
  '__proto__',
  'x',
  'onHoldDate',
  'dobDate',
  'waitingDate',
  // A record wrapped in a second envelope: its status and ids kept, to be said as wrapped (record-reading.ts).
  'data',
  'record',
);
const fieldValue = fc.oneof(
  json,
  fc.constantFrom('on_hold', 'dob', 'waiting', 'On hold'),
  fc.dictionary(fc.constantFrom('status', 'refId', 'recordId', 'identities', 'x'), json),
);
/** Envelopes as the service sends them, and as a hostile one might: any members, any values. */
const envelope = fc.oneof(
  fc.record({ status: json, data: fc.dictionary(fieldNames, fieldValue) }, { requiredKeys: [] }),
  fc.dictionary(fc.constantFrom('status', 'data', 'other'), json),
  json,
);

function statusLevelOfBytes(chunks: Buffer[]): unknown {
  const scan = new AnswerScan();
  const reader = new StatusLevelReader(scan.path);
  scan.add(reader);
  for (const chunk of chunks) scan.write(chunk);
  expect(scan.end()).toBe(true);
  return reader.value();
}

describe('the status level read from the scan', () => {
  it('equals JSON.parse then reduce, for any envelope, however its bytes are cut', () => {
    fc.assert(
      fc.property(envelope, cuts, fc.constantFrom(undefined, 1), (value, at, space) => {
        const bytes = Buffer.from(JSON.stringify(value, null, space));
        const expected = statusLevelValue(JSON.parse(bytes.toString()));
        expect(JSON.stringify(statusLevelOfBytes(cutAt(bytes, at)))).toBe(JSON.stringify(expected));
      }),
      { numRuns: 2000 },
    );
  });

  it('attack: a status-level field of two million empty lists is refused by the bound, not kept (each an object of the heap, two bytes of the answer)', () => {
    const scan = new AnswerScan();
    const reader = new StatusLevelReader(scan.path);
    scan.add(reader);
    scan.write(Buffer.from(`{"status":"success","data":{"blockPassID":[${'[],'.repeat(2_000_000)}[]]}}`));
    expect(scan.end()).toBe(true);
    expect(reader.tooLarge).toBe(true);
  });

  it('an id sent as a list costs its form alone: two million lists in refId are kept as [], none of them read', () => {
    const scan = new AnswerScan();
    const reader = new StatusLevelReader(scan.path);
    scan.add(reader);
    scan.write(Buffer.from(`{"status":"success","data":{"refId":[${'[],'.repeat(2_000_000)}[]]}}`));
    expect(scan.end()).toBe(true);
    expect(reader.tooLarge).toBe(false);
    expect((reader.value() as { data: { refId: unknown } }).data.refId).toEqual([]);
  });

  it('attack: once too large, a kept value grows no more (two million numbers in a status-level field)', () => {
    const scan = new AnswerScan();
    const reader = new StatusLevelReader(scan.path);
    scan.add(reader);
    scan.write(Buffer.from(`{"status":"success","data":{"blockPassID":[${'1,'.repeat(2_000_000)}1]}}`));
    expect(scan.end()).toBe(true);
    expect(reader.tooLarge).toBe(true);
    const kept = (reader.value() as { data: { blockPassID: unknown[] } }).data.blockPassID;
    // Each number counts one character against the 64 KiB the reader may keep.
    expect(kept.length).toBeLessThanOrEqual(64 * 1024 + 1);
  });

  it('attack: once too large, a string being kept is dropped, not held to its end (a 4 MB status-level field)', () => {
    const scan = new AnswerScan();
    const reader = new StatusLevelReader(scan.path);
    scan.add(reader);
    const text = 'x'.repeat(4 * 1024 * 1024);
    for (let at = 0; at < text.length; at += 64 * 1024)
      scan.write(
        Buffer.from(at === 0 ? `{"status":"success","data":{"refId":"${text.slice(0, 64 * 1024)}` : text.slice(at, at + 64 * 1024)),
      );
    scan.write(Buffer.from('"}}'));
    expect(scan.end()).toBe(true);
    expect(reader.tooLarge).toBe(true);
    expect((reader.value() as { data: Record<string, unknown> }).data).toEqual({});
  });

  it('keeps the last of duplicate members, as JSON.parse does, and never sets a prototype', () => {
    const bytes = Buffer.from('{"status":1,"data":{"refId":"a","__proto__":{"x":1},"refId":"b"},"status":"success"}');
    const reduced = statusLevelOfBytes([bytes]) as { status: unknown; data: Record<string, unknown> };
    expect(reduced).toEqual({ status: 'success', data: { refId: 'b' } });
    expect(Object.getPrototypeOf(reduced.data)).toBe(Object.prototype);
  });
});

describe('the status part of an answer in parts, asked early and again at the end', () => {
  it('keeps the date of an unknown status that comes after the identities (the early ask had dropped it for good)', () => {
    const scan = new AnswerScan();
    const part = new StatusPart(scan);
    const data = { onHoldDate: '2026-03-01T10:00:00.000Z', refId: 'r', recordId: 'x', identities: {}, status: 'on_hold' };
    scan.write(Buffer.from(JSON.stringify({ status: 'success', data })));
    expect(scan.end()).toBe(true);
    expect(JSON.parse(part.partBytes()!.toString()).data).toEqual({
      onHoldDate: '2026-03-01T10:00:00.000Z',
      refId: 'r',
      recordId: 'x',
      status: 'on_hold',
    });
  });
});

/** willArchiveAtDate as the archive watch reads it from these chunks. */
function archiveFieldOf(chunks: Buffer[]): Promise<Scan> {
  return new Promise((resolve) => {
    const body = Object.assign(new PassThrough(), { headers: {} });
    watchWillArchiveAt(body as never, resolve);
    for (const chunk of chunks) body.write(chunk);
    body.end();
    body.resume();
  });
}

/** What the watch says of the field's value: text up to 64 characters as it is; any other value but null, its kind. */
function expectedScan(parsed: unknown): Scan {
  if (parsed === undefined || parsed === null) return null;
  if (typeof parsed === 'string') {
    if (parsed.length === 0) return { notADate: 'empty text' };
    return parsed.length <= 64 ? parsed : { notADate: 'text too long for a date' };
  }
  if (typeof parsed === 'number') return { notADate: 'a number' };
  if (typeof parsed === 'boolean') return { notADate: 'true or false' };
  return { notADate: Array.isArray(parsed) ? 'a list' : 'an object' };
}

describe('the archive watch read from the scan', () => {
  it('finds data.willArchiveAtDate exactly where JSON.parse has it, and a field of that name elsewhere never', async () => {
    const date = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    const other = fc.dictionary(fc.constantFrom('willArchiveAtDate', 'customFields', 'data', 'x'), json, { maxKeys: 3 });
    await fc.assert(
      fc.asyncProperty(fc.option(date), other, other, cuts, async (real, before, after, at) => {
        const data = { ...before, ...(real === null ? {} : { willArchiveAtDate: real }), nested: { data: after } };
        const text = JSON.stringify({ status: 'success', extra: before, data });
        const parsed = JSON.parse(text).data.willArchiveAtDate;
        expect(await archiveFieldOf(cutAt(Buffer.from(text), at))).toEqual(expectedScan(parsed));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the key watch read from the scan', () => {
  const key = 'k3y-Fr0m/"the-serv3r';
  const escapeSome = (text: string, mask: number) =>
    [...text]
      .map((char, i) =>
        mask & (1 << (i % 30)) ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(char).slice(1, -1),
      )
      .join('');

  function found(chunks: Buffer[]): boolean {
    const scan = new AnswerScan();
    const watch = new KeyWatch(keySearch([key]), scan.path, { raw: true });
    scan.add(watch);
    for (const chunk of chunks) scan.write(chunk);
    scan.end();
    return watch.found;
  }

  it('finds the key however its characters are escaped, wherever the chunks are cut, and no key where there is none', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(), cuts, (before, after, mask, at) => {
        const text = `{"data":{"note":"${escapeSome(before, 0)}${escapeSome(key, mask)}${escapeSome(after, 0)}"}}`;
        expect(found(cutAt(Buffer.from(text), at))).toBe(true);
        const clean = `{"data":{"note":${JSON.stringify(before + after)}}}`;
        expect(found(cutAt(Buffer.from(clean), at))).toBe((before + after).includes(key));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds the key base64-encoded in an identity value at any alignment, with whitespace or a data: prefix', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.boolean(), fc.boolean(), cuts, (lead, spaced, prefixed, at) => {
        let value = Buffer.concat([Buffer.from(lead), Buffer.from(key), Buffer.from('tail')]).toString('base64');
        if (spaced) value = value.replace(/(.{7})/g, '$1\\n ');
        if (prefixed) value = `data:image/png;base64,${value}`;
        const text = `{"data":{"identities":{"selfie":{"type":"base64","value":"${value}"}}}}`;
        expect(found(cutAt(Buffer.from(text), at))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  // Plain letters are searched as text and the rest decoded (picture-key-search.ts): a key cut between the two ways is still found.
  it('finds the key in an identity value that turns from plain letters to spaced or padded ones anywhere, and none where there is none', () => {
    const picture = (bytes: Uint8Array) =>
      `{"data":{"identities":{"selfie":{"type":"base64","value":"VALUE"}}}}`.replace('VALUE', Buffer.from(bytes).toString('base64'));
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.nat(),
        fc.constantFrom(' ', '  ', '\\n', '=='),
        cuts,
        (lead, tail, where, mark, at) => {
          const value = Buffer.concat([Buffer.from(lead), Buffer.from(key), Buffer.from(tail)]).toString('base64');
          const cut = where % (value.length + 1);
          const text = `{"data":{"identities":{"selfie":{"type":"base64","value":"${value.slice(0, cut)}${mark}${value.slice(cut)}"}}}}`;
          // With padding in the middle the browser reads letters on either side as one run of groups only when it falls between groups.
          if (mark !== '==' || cut % 4 === 0) expect(found(cutAt(Buffer.from(text), at))).toBe(true);
          const clean = Buffer.concat([Buffer.from(lead), Buffer.from(tail)]);
          expect(found(cutAt(Buffer.from(picture(clean)), at))).toBe(clean.includes(key));
        },
      ),
      { numRuns: 500 },
    );
  });
});
