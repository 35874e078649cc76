import { describe, expect, it } from 'vitest';
import { candidateTitle } from '../../src/app/candidate/page-title.ts';
import { BIDI_CONTROLS, BIDI_MARKS, BIDI_REORDERING } from '../../src/kyc/contract/bidi.ts';
import { csvCell } from '../../src/kyc/contract/csv.ts';
import { cleanId } from '../../src/kyc/view/id-input.ts';
import { revealBidiControls } from '../../src/kyc/view/text.ts';

/** Every code point a class of bidi.ts names, its ranges spelled out. */
function codePoints(ranges: string): string[] {
  const chars: string[] = [];
  for (const [, from, to] of ranges.matchAll(/\\u([0-9a-f]{4})(?:-\\u([0-9a-f]{4}))?/g)) {
    for (let code = Number.parseInt(from!, 16); code <= Number.parseInt(to ?? from!, 16); code++) chars.push(String.fromCharCode(code));
  }
  return chars;
}

const reordering = codePoints(BIDI_REORDERING);
const marks = codePoints(BIDI_MARKS);

describe('the one list of bidirectional controls, read by each place that handles them', () => {
  it('names the documented controls: 5 embeddings and overrides, 4 isolates, 3 marks', () => {
    expect(reordering.map((c) => c.charCodeAt(0).toString(16))).toEqual([
      '202a',
      '202b',
      '202c',
      '202d',
      '202e',
      '2066',
      '2067',
      '2068',
      '2069',
    ]);
    expect(marks.map((c) => c.charCodeAt(0).toString(16))).toEqual(['200e', '200f', '61c']);
    expect(codePoints(BIDI_CONTROLS)).toEqual([...marks, ...reordering]);
  });

  it.each([...marks, ...reordering].map((char) => [char.charCodeAt(0).toString(16), char]))(
    'U+%s: shown on the page, cleaned from a pasted id, kept out of the tab title',
    (_, char) => {
      expect(revealBidiControls(`a${char}b`)).not.toContain(char);
      expect(cleanId(`ref${char}-1`)).toEqual({ id: 'ref-1', removed: [{ label: 'bidirectional mark', count: 1 }] });
      const title = candidateTitle({ status: 'approved', refId: `ref${char}-1` } as never, 'support', 'refId');
      expect(title.startsWith('ref-1 — ')).toBe(true);
    },
  );

  it('a CSV cell shows the reordering controls by code point and keeps the marks, which right-to-left text may hold', () => {
    for (const char of reordering) expect(csvCell(`a${char}b`)).not.toContain(char);
    for (const char of marks) expect(csvCell(`a${char}b`)).toBe(`a${char}b`);
  });
});
