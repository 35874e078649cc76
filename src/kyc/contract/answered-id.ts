/**
 * Whether an answer's id is another candidate's than the one asked: the server's guards and the page's other fields
 * (other-fields.ts) compare by it. A module of its own, apart from lookup.ts, so that the first load does not carry it.
 */

/** An id as compared: its Unicode form made one (NFC: "é" typed as e and an accent is "é"), outer spaces and case aside. */
const sameId = (id: string) => id.normalize('NFC').trim().toLowerCase();

/** An answer's id that is neither text nor a number (an object, a list, true or false): its kind, never its value. */
export interface NotAnId {
  notAnId: 'an object' | 'a list' | 'true or false';
}

/**
 * The id an answer's record gives for the kind asked, when it is another candidate's: a cache or a gateway
 * in front of the service answering with someone else's record. Ids are compared without regard to case,
 * outer spaces or Unicode form (a service may write them otherwise than they were typed); a number is
 * compared by its JSON text as sent (the streamed watch hands that text; a number already parsed only as a
 * safe integer, whose text JavaScript writes as sent). An id of any other form cannot be shown to be the
 * asked candidate's: it is refused too (NotAnId). A record without that id (null, or blank) says nothing
 * either way. The server refuses such an answer (other_candidate).
 */
export function answeredOther(answered: unknown, asked: string): string | NotAnId | undefined {
  if (answered === null || answered === undefined) return undefined;
  if (typeof answered === 'number') {
    const text = String(answered);
    return Number.isSafeInteger(answered) && sameId(text) === sameId(asked) ? undefined : text;
  }
  if (typeof answered === 'boolean') return { notAnId: 'true or false' };
  if (typeof answered === 'object') return { notAnId: Array.isArray(answered) ? 'a list' : 'an object' };
  if (typeof answered !== 'string' || answered.trim() === '') return undefined;
  return sameId(answered) === sameId(asked) ? undefined : answered;
}
