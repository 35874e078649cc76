import { type ReactNode, useMemo } from 'react';
import { revealBidiControls } from '../../kyc/view/text.ts';

/**
 * A certificate's text, JSON or not, as lines that wrap to the box: at spaces, and a token longer than the
 * box (a proof's signature, a URL) anywhere inside it. Tailwind's base sets tab-size 4: said here, as an
 * indent's width counts on it.
 */
const WRAP = 'whitespace-pre-wrap wrap-anywhere [tab-size:4]';
const TAB_SIZE = 4;
/**
 * Text longer than this is one block of text, wrapped as above: an element per line of a megabyte would
 * slow the page. The bound of the page too: the raw JSON views open stay under it together (withRawView in
 * certificate-text.tsx), where 20 certificates of 28,000 lines took 7.2 s, each under it alone (red team).
 */
export const MAX_LAID_OUT = 200_000;
/** A date or a number no longer than this stays on one line; a longer one breaks where it must, as a signature does. */
const MAX_KEPT_WHOLE = 32;
/** An ISO date (with its time, if any) or a number, not inside a word: "2026-11-01T16:31:44.837Z" broke at its hyphens. */
const KEPT_WHOLE =
  /(?<![\w.])(?:\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])/g;

/**
 * Each line a block whose wrapped continuation keeps the line's indentation (a hanging indent): with the
 * indent as wrappable text, a value too long for the rest of its line dropped to column 0 and left a line
 * of spaces above it. The indent's spaces are still there, in the padding, so that selecting and copying
 * gives the text exactly, indentation and line breaks included; its direction controls are shown as
 * marks (`⟦U+202E⟧`, as every text of the service is: LongText), never reordering what follows them, and
 * only the Copy beside it gives them as sent. `laidOut` false: one block of text, whatever its length (the
 * page's bound is spent).
 */
export function JsonText({ text, laidOut = true }: { text: string; laidOut?: boolean }) {
  const lines = useMemo(() => (!laidOut || text.length > MAX_LAID_OUT ? undefined : text.split('\n')), [text, laidOut]);
  if (!lines) return <pre className={WRAP}>{revealBidiControls(text)}</pre>;
  return (
    <pre className={WRAP}>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a text's lines never move, and two may read alike.
        <Line key={index} line={line} last={index === lines.length - 1} />
      ))}
    </pre>
  );
}

function Line({ line, last }: { line: string; last: boolean }) {
  const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
  const content = keptWhole(revealBidiControls(line.slice(indent.length)));
  // The line's own break is text too: the copy holds it, and a blank line keeps its height.
  const end = last ? '' : '\n';
  if (indent === '') {
    return (
      <span className="block">
        {content}
        {end}
      </span>
    );
  }
  // At most half the box: a line nested deeper still has room for its value.
  const width = `min(${columnsOf(indent)}ch, 50%)`;
  return (
    <span className="relative block" style={{ paddingLeft: width }}>
      <span className="absolute top-0 left-0 overflow-hidden whitespace-pre" style={{ width }}>
        {indent}
      </span>
      {content}
      {end}
    </span>
  );
}

/** The columns an indent takes, a tab to the next multiple of TAB_SIZE. */
function columnsOf(indent: string): number {
  let columns = 0;
  for (const character of indent) columns = character === '\t' ? (Math.floor(columns / TAB_SIZE) + 1) * TAB_SIZE : columns + 1;
  return columns;
}

/** The text with each short date and number in a span that does not break. */
function keptWhole(text: string): ReactNode[] {
  const pieces: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(KEPT_WHOLE)) {
    if (match[0].length < 2 || match[0].length > MAX_KEPT_WHOLE) continue;
    if (match.index > at) pieces.push(text.slice(at, match.index));
    pieces.push(
      <span key={match.index} className="whitespace-nowrap">
        {match[0]}
      </span>,
    );
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}
