import { knownOutcome, worstOutcome } from './outcome.ts';
import { holdsResult } from './result-keys.ts';

/**
 * The results a certificate's text states where it is not JSON (cut off, or broken by `,,`): the
 * certificate's own text, or text in it that holds JSON (certificate-fields.ts). Never a pass.
 */

/**
 * `"key": "value"` pairs in text that is not JSON (a truncated certificate still states its results). The
 * value is read ahead, not taken: a pair misread across a key's closing quote (`"issueDate":{":":null},`)
 * must not take the opening quote of the pair after it (`"reviewBody":"match"`), which was then not read.
 */
const QUOTED_PAIR = /"([^"\\]{1,64})"\s*:\s*(?="([^"\\]{1,64})")/g;

/**
 * The word a certificate that does not parse gets when the worst its text states is a pass (`clear`,
 * `no_match`…): amber, "needs attention" in the queue. The text may be cut off (the published examples
 * are) or broken anywhere (`,,`), so what it would have said after that is unknown: a failure or a caution
 * found is evidence and stands, a pass found confirms nothing.
 */
export const UNCONFIRMED = 'unconfirmed';

/**
 * A certificate's word where it states no known result: not JSON with none in its text, or JSON with none
 * this tool knows. Amber, "needs attention": beside a `clear`, the record's word is this, never the pass.
 */
export const UNREADABLE = 'unreadable';

/** What the chips and Copy summary say after the pass such a certificate's text states. */
export const UNCONFIRMED_NOTE = 'found in the text — certificate incomplete or not valid JSON, the rest unknown';

export interface TextOutcome {
  /** The worst known word found, or UNCONFIRMED where that is a pass. */
  outcome: string;
  /** The key it was found under. */
  path: string;
  /** The pass the text states, when `outcome` is UNCONFIRMED. */
  stated?: string;
}

/** Known outcome words under result-like keys (or alone under a wrapper) in a certificate that does not parse: the worst of them. */
export function outcomeInText(raw: string): TextOutcome | undefined {
  const found: Array<{ outcome: string; path: string }> = [];
  for (const [, key, value] of raw.matchAll(QUOTED_PAIR))
    if (holdsResult(key!, value!) && knownOutcome(value!)) found.push({ outcome: value!, path: key! });
  const worst = worstOutcome(found.map((item) => item.outcome));
  const first = found.find((item) => item.outcome === worst);
  if (first === undefined || knownOutcome(first.outcome)!.tone !== 'positive') return first;
  return { outcome: UNCONFIRMED, path: first.path, stated: first.outcome };
}
