import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../src/kyc/contract/csv.ts';

describe('CSV cells (the audit export and the batch export)', () => {
  it('attack: a NUL, an ESC or a right-to-left override in an id reaches no cell as itself, and is seen there', () => {
    expect(csvCell('a\u0000b')).toBe('a\u2400b');
    expect(csvCell('x\u001b[31m')).toBe('x\u241b[31m');
    expect(csvCell('evil\u202eexe.txt')).toBe('evil<U+202E>exe.txt');
    expect(csvCell('=cmd\u0007')).toBe("'=cmd\u2407");
  });

  it('property: no cell holds a control character but tab and line breaks, nor a direction override; plain text is kept', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\t', '\u0000', '\u001b', '\u007f', '\u202e', '\u2066', 'é') }),
        (value) => {
          const line = csvLine([value, 'next']);
          expect(line.slice(0, -2).replace(/[\t\r\n]/g, '')).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
          if (!/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(value) && !/^[=+\-@]/.test(value)) {
            expect(csvCell(value)).toBe(/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
          }
        },
      ),
    );
  });
});
