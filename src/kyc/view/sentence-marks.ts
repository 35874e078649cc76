import { listed } from './id-input.ts';

/**
 * A sentence's marks around an id, in their own module: only what loads after the first page reads them
 * (the paste reader, a batch's list, the not-found screen), while id-input.ts is part of the first load
 * (bundle-size.test.ts).
 */

/**
 * An id as a sentence gives it (`support-ticket-4410,`, `#user-7781`, `(cust_1)`, `“cust_1”`): brackets,
 * quotes (curly ones too, as mail writes them) or `#` before it; a bracket, quote or the sentence's
 * punctuation after it, but a closing bracket the id itself opened stays (`acme(1)`, `abc<1>`), as in a link
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
  const open = { ')': '(', ']': '[', '}': '{', '>': '<' }[close];
  return open !== undefined && text.split(open).length > text.split(close).length;
}

/** The marks splitMarks takes, named as a reader says them. */
const MARK_NAMES: Readonly<Record<string, string>> = {
  ...Object.fromEntries([...'"\'\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb\u2039\u203a`'].map((mark) => [mark, 'quote'])),
  ...Object.fromEntries([...'()[]{}<>'].map((mark) => [mark, 'bracket'])),
  '#': 'hash',
  '.': 'full stop',
  ',': 'comma',
  ';': 'semicolon',
  ':': 'colon',
  '!': 'exclamation mark',
  '?': 'question mark',
};

const COUNTS = ['', '', 'two ', 'three ', 'four ', 'five '];
const plural = (name: string) => (name.endsWith('sh') ? `${name}es` : `${name}s`);

/** "quote and comma", "three full stops", "comma and ‹~›": runs of one mark counted, any other character set apart. */
function namesOf(marks: readonly string[], plurals = false): string {
  const runs: Array<{ name: string; count: number }> = [];
  for (const mark of marks) {
    const name = MARK_NAMES[mark];
    const last = runs.at(-1);
    if (name === undefined && last?.name.startsWith('\u2039')) last.name = `${last.name.slice(0, -1)}${mark}\u203a`;
    else if (name === undefined) runs.push({ name: `\u2039${mark}\u203a`, count: 1 });
    else if (last?.name === name) last.count += 1;
    else runs.push({ name, count: 1 });
  }
  const said = runs.map(({ name, count }) =>
    name.startsWith('\u2039') ? name : plurals ? plural(name) : count > 1 ? `${COUNTS[count] ?? `${count} `}${plural(name)}` : name,
  );
  return listed(said);
}

/**
 * A sentence's marks dropped from around an id, in words: `'user-7781',` gives "the quotes around it and
 * the comma after it", `#user-7781` "the hash before it". A mark in straight quotes (`the "'," after it`)
 * was hard to read; a character without a name is set apart as `‹~›`. One wording for a paste's note, a
 * batch's line (id-list.ts) and the not-found screen's offer (id-marks.ts).
 */
export function marksInWords(lead: string, tail: string): string {
  const before = [...lead];
  const after = [...tail];
  const around: string[] = [];
  // A pair of one kind on both sides, from the id out: `("cust_1")` has quotes, then brackets, around it.
  while (before.length > 0 && MARK_NAMES[before.at(-1)!] !== undefined && MARK_NAMES[before.at(-1)!] === MARK_NAMES[after[0] ?? '']) {
    around.push(before.pop()!);
    after.shift();
  }
  const sides = [
    before.length > 0 && `the ${namesOf(before)} before it`,
    around.length > 0 && `the ${namesOf(around, true)} around it`,
    after.length > 0 && `the ${namesOf(after)} after it`,
  ].filter((side): side is string => side !== false);
  return sides.length > 0 ? listed(sides) : '';
}
