/**
 * A link as mail and chat hand it over: `<…>` around it (a plain-text mail's link) dropped, and the
 * sentence's punctuation after it (`….` `…,` `…)`): a link ending in one was looked up with it, as an id
 * with a full stop. An id's own characters stay: `,` `;` `:` `?` are never literal at the end of a link
 * (they are percent-encoded in a path, a `?` starts the query), a closing bracket or quote only goes when
 * nothing opened it (`acme(1)` keeps its `)`), and a full stop or `!` goes as the sentence's (an id that
 * ends in one, rare, is then asked without it: its link pasted alone, in the address bar, keeps it).
 * Anything that is not a link is returned as it is.
 */
export function bareLink(text: string): string {
  let link = text.trim();
  if (link.startsWith('<') && link.endsWith('>')) link = link.slice(1, -1).trim();
  if (!/^(https?:\/\/|\/candidates\/|\/e\/)/i.test(link)) return text.trim();
  for (;;) {
    const last = link.at(-1)!;
    const opens = CLOSERS.get(last);
    const unbalanced = opens === '' ? count(link, last) % 2 === 1 : opens !== undefined && count(link, last) > count(link, opens);
    if (!SENTENCE_ENDS.has(last) && !unbalanced) return link;
    link = link.slice(0, -1);
  }
}

const SENTENCE_ENDS = new Set(['.', ',', ';', ':', '!', '?']);
/** A closing bracket or quote, and what opens it (a straight quote opens itself: an odd count is unbalanced). */
const CLOSERS = new Map([
  [')', '('],
  [']', '['],
  ['}', '{'],
  ['\u201d', '\u201c'],
  ['\u2019', '\u2018'],
  ['"', ''],
  ["'", ''],
]);

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}
