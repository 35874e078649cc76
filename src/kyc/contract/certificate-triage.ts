import { certificateFields } from './certificate-fields.ts';
import { readCertificateJson } from './certificate-json.ts';
import { outcomeInText, UNREADABLE } from './certificate-text.ts';
import { knownOutcome, outcomeKey, worstOutcome } from './outcome.ts';

export { outcomeInText, type TextOutcome, UNCONFIRMED, UNCONFIRMED_NOTE, UNREADABLE } from './certificate-text.ts';

/**
 * A record's certificates as the decision summary reads them, in one word: the worst known outcome of
 * them all (`clear`, `consider`, `potential_match`…), for the queue's triage (issue 32). The summary's
 * chip of each certificate is its worst result (certificate-review.ts); one that does not parse still
 * states its results in its text, but never a pass (UNCONFIRMED), and one that states no known result at all
 * is UNREADABLE: the record's word is a pass only when every certificate parses and states one. Shared by the browser (the chips) and the server (the queue index,
 * which keeps this word and nothing else of a certificate).
 */

/**
 * One certificate's worst known outcome, parsed (once more for one encoded twice: certificate-json.ts, as
 * the page reads it) or read from its text; undefined when it states none this tool knows.
 */
export function certificateWorst(raw: string): string | undefined {
  const json = readCertificateJson(raw, JSON.parse, (value) => value);
  if (!json.ok) return outcomeInText(json.text)?.outcome;
  return certificateFields(json.read).worst?.value;
}

/** The worst outcome of all of a record's certificates, as one word (`potential_match`, UNREADABLE for one that states none); undefined for none. */
export function certificatesOutcome(certs: readonly string[]): string | undefined {
  const worst = worstOutcome(certs.map((raw) => certificateWorst(raw) ?? UNREADABLE));
  return worst === undefined ? undefined : outcomeKey(worst);
}

/** Whether an outcome word asks a reviewer to look (a caution or a failure, as the chips colour it). */
export function needsAttention(outcome: string | undefined): boolean {
  const known = outcome === undefined ? undefined : knownOutcome(outcome);
  return known !== undefined && known.tone !== 'positive';
}
