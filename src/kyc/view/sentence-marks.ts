/**
 * A sentence's marks around an id, in their own module: only what loads after the first page reads them
 * (the paste reader, a batch's list, the not-found screen), while id-input.ts is part of the first load
 * (bundle-size.test.ts).
 */

/**
 * An id as a sentence gives it (`support-ticket-4410,`, `#user-7781`, `(cust_1)`, `“cust_1”`): brackets,
 * quotes (curly ones too, as mail writes them) or `#` before it; a bracket, quote or the sentence's
 * punctuation after it, but a closing bracket the id itself opened stays (`acme(1)`), as in a link
 * (bare-link.ts). One rule for the paste's sentences (paste.ts), each line of a list (id-list.ts) and the
 * not-found screen's offer (id-marks.ts).
 */
export function splitMarks(text: string): { lead: string; bare: string; tail: string } {
  const lead = /^[("'#<[{\u201c\u201e\u2018\u00ab\u2039]+/.exec(text)?.[0] ?? '';
  let tail = /[)"'>\].,;:!?}\u201d\u2019\u00bb\u203a]+$/.exec(text.slice(lead.length))?.[0] ?? '';
  let bare = text.slice(lead.length, text.length - tail.length);
  while (tail !== '' && opened(bare, tail[0]!)) {
    bare += tail[0];
    tail = tail.slice(1);
  }
  return { lead, bare, tail };
}

/** Whether `text` opened the bracket that `close` would close. */
function opened(text: string, close: string): boolean {
  const open = { ')': '(', ']': '[', '}': '{' }[close];
  return open !== undefined && text.split(open).length > text.split(close).length;
}
