import { knownOutcome } from './outcome.ts';

/** Keys that only wrap what they hold: left out of a field's label, kept in its path. */
export const WRAPPERS = new Set(['claim', 'reviewbody', 'customfields', 'credentialsubject', 'data', 'payload', 'body', 'report']);
/** Result-like keys whatever their prefix or suffix. */
const GENERIC_RESULT = new Set(['result', 'outcome', 'status', 'decision', 'verdict', 'results', 'match', 'hit']);

export const normalise = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `result`, `RESULT`, `match_status`, `MatchStatus`, `review_result`, `overallOutcome`, `reviewAnswer`… */
export function isResultKey(key: string): boolean {
  const k = normalise(key);
  return (
    GENERIC_RESULT.has(k) ||
    ['result', 'outcome', 'decision', 'verdict', 'status', 'answer'].some((suffix) => k.endsWith(suffix) && k.length > suffix.length)
  );
}

/**
 * Whether a plain value under this key states a result: under a result-like key, or a known outcome word
 * standing alone under a key that only wraps results (`"reviewBody": "potential_match"`: the facts name
 * the Claim's reviewBody and these labels, not how they are nested).
 */
export function holdsResult(key: string, value: string): boolean {
  return isResultKey(key) || (WRAPPERS.has(normalise(key)) && knownOutcome(value) !== undefined);
}
