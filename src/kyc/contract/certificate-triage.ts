import { certificateFields, holdsResult } from './certificate-fields.ts';
import { knownOutcome, outcomeKey, worstOutcome } from './outcome.ts';

/**
 * A record's certificates as the decision summary reads them, in one word: the worst known outcome of
 * them all (`clear`, `consider`, `potential_match`…), for the queue's triage (issue 32). The summary's
 * chip of each certificate is its worst result (certificate-review.ts); one that does not parse still
 * states its results in its text, but never a pass (UNCONFIRMED). Shared by the browser (the chips) and the server (the queue index,
 * which keeps this word and nothing else of a certificate).
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

/** One certificate's worst known outcome, parsed or read from its text; undefined when it states none this tool knows. */
export function certificateWorst(raw: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return outcomeInText(raw)?.outcome;
  }
  return certificateFields(json).worst?.value;
}

/** The worst known outcome of all of a record's certificates, as one word (`potential_match`); undefined when none states one. */
export function certificatesOutcome(certs: readonly string[]): string | undefined {
  const worst = worstOutcome(certs.flatMap((raw) => certificateWorst(raw) ?? []));
  return worst === undefined ? undefined : outcomeKey(worst);
}

/** Whether an outcome word asks a reviewer to look (a caution or a failure, as the chips colour it). */
export function needsAttention(outcome: string | undefined): boolean {
  const known = outcome === undefined ? undefined : knownOutcome(outcome);
  return known !== undefined && known.tone !== 'positive';
}
