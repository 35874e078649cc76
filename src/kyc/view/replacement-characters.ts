import { structuredFieldsOf } from '../contract/other-forms.ts';
import type { CandidateRecord } from '../contract/schema.ts';

/**
 * U+FFFD, the replacement character: what the server's reading of an answer puts in place of bytes it
 * could not decode (a charset it does not read, UTF-16 or Shift_JIS, or bytes that are not UTF-8 at all:
 * answer-charset.ts). The page says how many there are, so a name shown "Silv�o" is not taken as sent.
 */
export const REPLACEMENT = '\uFFFD';

/** The U+FFFD in one string: a native search first, so a string without any (nearly all) costs one scan. */
function countIn(text: string): number {
  let at = text.indexOf(REPLACEMENT);
  let count = 0;
  while (at !== -1) {
    count += 1;
    at = text.indexOf(REPLACEMENT, at + 1);
  }
  return count;
}

/** A parsed JSON object or list: nothing else (a picture's bytes, kept beside the record, are never walked). */
const isWalked = (value: unknown): value is object =>
  Array.isArray(value) || (typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value)));

/**
 * How many U+FFFD the record's strings hold, keys included, and the values kept beside its identities and
 * custom fields (other-forms.ts). Counted in the browser over the record as read, once per record: the
 * server's plain path passes an answer on without looking at its bytes for this.
 */
export function replacementCharactersIn(record: CandidateRecord): number {
  let count = 0;
  for (const fields of [record.identities, record.customFields]) {
    for (const field of structuredFieldsOf(fields)) count += countIn(field.name) + countIn(field.json);
  }
  // A stack, not recursion: a record is as deep as its answer, which the server bounds, but the page need not rely on it.
  const stack: unknown[] = [record];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') count += countIn(value);
    else if (isWalked(value)) {
      if (!Array.isArray(value)) for (const key of Object.keys(value)) count += countIn(key);
      stack.push(...Object.values(value));
    }
  }
  return count;
}
