/** The two ways to look a candidate up, and the rules an id must follow before anything is fetched. */
export const LOOKUP_KINDS = ['refId', 'recordId'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

export const MAX_ID_LENGTH = 256;

export function isLookupKind(value: string): value is LookupKind {
  return (LOOKUP_KINDS as readonly string[]).includes(value);
}

// C0 controls, DEL and C1 controls (the Unicode category Cc); also the line and paragraph separators.
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A recordId is 24 hexadecimal characters (a MongoDB ObjectId). */
export function looksLikeRecordId(id: string): boolean {
  return /^[0-9a-f]{24}$/i.test(id);
}

/**
 * The one rule of the recordId fallback, for the search box and the batch alike: a refId the service
 * does not know that has the form of a recordId is most likely a recordId, and is tried once as one.
 */
export function triesAsRecordId(kind: LookupKind, id: string, code: string): boolean {
  return code === 'not_found' && kind === 'refId' && looksLikeRecordId(id);
}

/**
 * A batch's rule: its kind is chosen once for a whole pasted list, and lists mix both. A miss is tried
 * once as the other kind where its form allows: a refId with the form of a recordId (triesAsRecordId),
 * and a recordId without that form, which can only be a refId.
 */
export function batchTriesAs(kind: LookupKind, id: string, code: string): LookupKind | undefined {
  if (triesAsRecordId(kind, id, code)) return 'recordId';
  return code === 'not_found' && kind === 'recordId' && !looksLikeRecordId(id) ? 'refId' : undefined;
}

/** The kind an id's form says it is: 24 hexadecimal characters are a recordId, anything else a refId. */
export function guessKind(id: string): LookupKind {
  return looksLikeRecordId(id) ? 'recordId' : 'refId';
}

/**
 * The other way round, for the search box's guess only: a recordId it read from the id's form (not one
 * the switch chose, nor a link's) that the service does not know is tried once as a refId, since a
 * refId may have any form, that of a recordId too.
 */
export function triesAsRefId(kind: LookupKind, code: string, guessed: boolean): boolean {
  return code === 'not_found' && kind === 'recordId' && guessed;
}

export type IdCheck = { ok: true; id: string } | { ok: false; message: string };

/**
 * Checks an id exactly as given (no trimming: ids are echoed verbatim by the service).
 * The same rule runs in the form and in the proxy.
 */
export function checkId(id: string): IdCheck {
  if (id.trim() === '') return { ok: false, message: 'The id is empty.' };
  if ([...id].length > MAX_ID_LENGTH) {
    return { ok: false, message: `The id is too long (at most ${MAX_ID_LENGTH} characters).` };
  }
  if (CONTROL_CHARACTER.test(id)) {
    return { ok: false, message: 'The id contains a control character (such as a line break or tab).' };
  }
  if (LONE_SURROGATE.test(id)) return { ok: false, message: 'The id contains an invalid character.' };
  // "." and ".." are dot-segments: any URL normaliser between here and the service would resolve them.
  if (id === '.' || id === '..') return { ok: false, message: `"${id}" is not a valid id.` };
  return { ok: true, id };
}

/** The id as exactly one URL path segment. Only valid ids (see checkId) may be encoded. */
export function encodeIdSegment(id: string): string {
  return encodeURIComponent(id);
}

export type SegmentDecode = { ok: true; id: string } | { ok: false; problem: 'not_one_segment' | 'bad_encoding' };

/**
 * The id from the still-encoded text after `/<kind>/` in a path: exactly one segment, percent-decoded.
 * The browser's router and the proxy both read ids this way; each words the problem for its reader.
 */
export function decodeIdSegment(encoded: string): SegmentDecode {
  if (encoded.includes('/')) return { ok: false, problem: 'not_one_segment' };
  try {
    return { ok: true, id: decodeURIComponent(encoded) };
  } catch {
    return { ok: false, problem: 'bad_encoding' };
  }
}
