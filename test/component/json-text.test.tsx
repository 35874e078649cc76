import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText } from '../../src/app/candidate/json-text.tsx';

/**
 * A certificate's text laid out a line at a time, its indentation in the padding and its dates and numbers
 * in spans of their own (json-text.tsx): the text itself must come through whole, as the page's copy and a
 * reader's selection take it. How it wraps is Chromium's to show (samples.spec.ts).
 */
const piece = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '{', '"a": ', '2026-11-01T16:31:44.837Z', '-12.5e-3', '10115.0', 'x1', ',');
const certificateLike = fc.array(fc.oneof(piece, fc.string({ maxLength: 12 })), { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('JsonText', () => {
  it('property: holds the text exactly, indentation, blank lines and line breaks included', () => {
    fc.assert(
      fc.property(certificateLike, (text) => {
        const { container, unmount } = render(<JsonText text={text} />);
        try {
          const pre = container.querySelector('pre')!;
          expect(pre.textContent).toBe(text);
          // One block per line, and nothing else at the top: a selection's line breaks are the text's own.
          expect(pre.children).toHaveLength(text.split('\n').length);
        } finally {
          unmount();
        }
      }),
      { numRuns: 200 },
    );
  });

  it("puts a line's indentation in a span of its own before the value, not as text the line can wrap at", () => {
    const { container } = render(<JsonText text={'{\n    "a": 1,\n\t  "b": 2\n}'} />);
    const [top, four, tabbed] = [...container.querySelectorAll<HTMLElement>('pre > span')];
    expect(top!.children).toHaveLength(0);
    expect(four!.firstElementChild!.textContent).toBe('    ');
    expect(tabbed!.firstElementChild!.textContent).toBe('\t  ');
    expect(tabbed!.firstElementChild!.nextSibling!.textContent).toBe('"b": 2');
  });

  it('keeps an ISO date and a number each in a span that does not break, but not a long token or digits inside a word', () => {
    const { container } = render(
      <JsonText
        text={'"created": "2026-11-01T16:31:44.837Z", "n": -12.5e-3, "sig": "Hx0Gyx12", "long": 123456789012345678901234567890123'}
      />,
    );
    const kept = [...container.querySelectorAll('.whitespace-nowrap')].map((span) => span.textContent);
    expect(kept).toEqual(['2026-11-01T16:31:44.837Z', '-12.5e-3']);
  });
});
