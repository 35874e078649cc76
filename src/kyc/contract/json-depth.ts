/**
 * JSON held in a record's strings (a map sent as text, a certificate, an address) nested deeper than this is
 * not read: it is said not to parse, as JSON that does not is. JSON.parse reads any depth without recursing,
 * but writing such a value out again (JSON.stringify, a layout) recurses once per level: a 20 KB text of
 * 10,000 nested lists ran the server's stack out in the queue's triage of a record, which took the process
 * down, and threw in the page's reading of the record. The same bound as the server's tokenizer puts on the
 * answer itself (json-tokens.ts's MAX_DEPTH), so a value is never read deeper from text than it could be sent.
 */
export const MAX_TEXT_DEPTH = 1000;

/** Thrown by withinTextDepth: its callers read the text as one that does not parse. */
export class JsonTextTooDeepError extends SyntaxError {
  override name = 'JsonTextTooDeepError';
}

/**
 * Throws JsonTextTooDeepError when `value` (as JSON.parse built it from `text`) holds containers nested
 * deeper than MAX_TEXT_DEPTH; returns it otherwise. A text with no more brackets than the bound cannot be,
 * so it is counted first (native searches); only past that is the value walked, without recursion.
 */
export function withinTextDepth<T>(value: T, text: string): T {
  if (bracketsUpTo(text, MAX_TEXT_DEPTH) <= MAX_TEXT_DEPTH) return value;
  const stack: Array<{ item: object; depth: number }> = [];
  if (typeof value === 'object' && value !== null) stack.push({ item: value, depth: 1 });
  for (let top = stack.pop(); top; top = stack.pop()) {
    if (top.depth > MAX_TEXT_DEPTH) throw new JsonTextTooDeepError(`JSON nested deeper than ${MAX_TEXT_DEPTH} levels`);
    for (const each of Array.isArray(top.item) ? top.item : Object.values(top.item)) {
      if (typeof each === 'object' && each !== null) stack.push({ item: each, depth: top.depth + 1 });
    }
  }
  return value;
}

/** How many `[` and `{` the text holds, counted up to one past `bound`. */
function bracketsUpTo(text: string, bound: number): number {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at !== -1 && count <= bound; at = text.indexOf(bracket, at + 1)) count++;
  }
  return count;
}
