/**
 * A configuration file's JSON, or where it stops being JSON, by line and column only. Node's own message
 * quotes the text around the mistake (`Unexpected token 's', "…"apiKey": sk-live-…" is not valid JSON`),
 * and the text beside a mistake may be a key pasted without its quotes: no part of the file's content is
 * ever in a message.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    if (!(error instanceof SyntaxError)) return { ok: false, problem: 'is not JSON this server can read' };
    const at = syntaxErrorOffset(text);
    if (at === undefined) return { ok: false, problem: 'is not valid JSON' };
    const { line, column } = lineAndColumn(text, at);
    const where = `line ${line}, column ${column}`;
    return { ok: false, problem: at >= text.length ? `is not valid JSON: it ends too soon (${where})` : `is not valid JSON at ${where}` };
  }
}

/** 1-based, as editors count: a tab or a character beyond the BMP counts as one column per UTF-16 unit. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

const WHITESPACE = /[ \t\n\r]*/y;
/** A string up to its closing quote (not included): where this stops short of a quote is the mistake. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a raw control character in a string is the mistake to find
const STRING_BODY = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;

function endOf(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : at;
}

/** The end of the string, number or literal at `at`; or, when there is none there, the offset of the mistake. */
function scalarEnd(text: string, at: number): { end: number } | { mistake: number } {
  if (text[at] === '"') {
    const body = endOf(STRING_BODY, text, at);
    return text[body] === '"' ? { end: body + 1 } : { mistake: body };
  }
  const end = Math.max(endOf(NUMBER, text, at), endOf(LITERAL, text, at));
  return end > at ? { end } : { mistake: at };
}

/**
 * The offset of the first character at which `text` cannot be JSON any more (its length: it ends too
 * soon); undefined when it is JSON. Iterative, so any nesting is walked without recursion.
 */
export function syntaxErrorOffset(text: string): number | undefined {
  const closers: string[] = [];
  let expect: 'value' | 'key' | 'after' = 'value';
  let at = 0;
  for (;;) {
    at = endOf(WHITESPACE, text, at);
    if (at >= text.length) return expect === 'after' && closers.length === 0 ? undefined : text.length;
    const c = text[at]!;
    if (expect === 'after') {
      if (c === ',' && closers.length > 0) expect = closers.at(-1) === '}' ? 'key' : 'value';
      else if (c === closers.at(-1)) closers.pop();
      else return at;
      at += 1;
    } else if (expect === 'value' && (c === '{' || c === '[')) {
      closers.push(c === '{' ? '}' : ']');
      at = endOf(WHITESPACE, text, at + 1);
      if (text[at] === closers.at(-1)) {
        closers.pop();
        at += 1;
        expect = 'after';
      } else expect = c === '{' ? 'key' : 'value';
    } else {
      const scalar = c === '"' || expect === 'value' ? scalarEnd(text, at) : { mistake: at };
      if ('mistake' in scalar) return scalar.mistake;
      at = scalar.end;
      if (expect === 'key') {
        at = endOf(WHITESPACE, text, at);
        if (text[at] !== ':') return at;
        at += 1;
        expect = 'value';
      } else expect = 'after';
    }
  }
}
