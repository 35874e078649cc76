/** Certificates: a map from slug (`onfido-service-cert`) to a string that should hold JSON-LD. */

import { type NumbersRead, readJsonKeepingNumbers, stringifyKeepingNumbers } from '../contract/number-text.ts';
import { readCertificateJson } from '../contract/certificate-json.ts';
import { humanise } from './labels.ts';
import { ownEntry } from '../contract/own-entry.ts';

const PROVIDER_NAMES: Record<string, string> = {
  onfido: 'Onfido',
  complyadvantage: 'ComplyAdvantage',
  blockpass: 'Blockpass',
};

function providerOf(slug: string): string {
  return slug.replace(/-service-cert$/, '').replace(/-cert$/, '');
}

/** `onfido-service-cert` -> "Onfido"; `some-new-provider-cert` -> "Some New Provider". */
export function certificateTitle(slug: string): string {
  const provider = providerOf(slug);
  return ownEntry(PROVIDER_NAMES, provider.toLowerCase()) ?? humanise(provider);
}

/** A slug naming a provider this tool knows by name. */
export function isKnownProvider(slug: string): boolean {
  return Object.hasOwn(PROVIDER_NAMES, providerOf(slug).toLowerCase());
}

/**
 * A certificate read: its JSON (`encodedTwice`: the text its JSON held, read once more: certificate-json.ts),
 * or why it could not be, with `text`, where the results it states are read from (its own text, or the text
 * it held when encoded twice).
 */
export type ParsedCertificate =
  | { ok: true; json: unknown; numbers: NumbersRead; encodedTwice?: string }
  | { ok: false; raw: string; text: string; problem: string };

/** A certificate's raw JSON view: laid out, and whether its numbers are shown as read past the bound (may be rounded). */
export type CertificateLayout = { ok: true; pretty: string; roundedPastBound: boolean } | { ok: false; problem: string };

const TOO_DEEP = 'This certificate is nested too deeply to lay out.';

/**
 * The certificate read, each number's text kept where JavaScript would write it otherwise (number-text.ts).
 * Not laid out: the decision summary and Copy summary read only its JSON, on every render, and the layout
 * of a large certificate costs as much as reading it; layOutCertificate is for the raw JSON view.
 */
export function parseCertificate(raw: string): ParsedCertificate {
  const read = readCertificateJson(
    raw,
    (text) => readJsonKeepingNumbers(text),
    (json) => json.value,
  );
  if (read.ok) return { ok: true, json: read.read.value, numbers: read.read.numbers, ...encodedTwiceOf(read.encodedTwice) };
  return { ok: false, raw, text: read.text, problem: problemOf(read) };
}

const encodedTwiceOf = (held: string | undefined) => (held === undefined ? {} : { encodedTwice: held });

/** Why a certificate could not be read, in words: what the text is, and the parser's own words for where it breaks. */
function problemOf({ encodedTwice, error }: { encodedTwice: boolean; error?: unknown }): string {
  // Valid JSON nested too deep for the reviver's walk: as for the layout below, not "not valid JSON".
  if (error instanceof RangeError) return TOO_DEEP;
  const why = error instanceof Error ? ` (${error.message})` : '';
  if (!encodedTwice) return `This certificate is not valid JSON${why}.`;
  return error === undefined
    ? 'This certificate came encoded more than twice (JSON text holding JSON text holding text): it was read twice and is still text, not a document.'
    : `This certificate came as JSON text holding text, and that text is not valid JSON${why}.`;
}

/** Whitespace JSON allows around a value. */
const OUTER_SPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * The certificate laid out for its raw JSON view with each number as its text writes it:
 * `0.10000000000000001` and `12345678901234567890`, never JavaScript's `0.1` and `12345678901234567000`,
 * where the browser gives JSON.parse the source text. Where no number's text was kept, JSON.stringify's own
 * layout, the same text in a fraction of the time of the walk that writes kept texts (docs/performance.md,
 * "A certificate's layout"). A certificate that is one bare number has no object or list to keep its text
 * by: it is its own text, trimmed.
 */
export function layOutCertificate(raw: string, parsed: { json: unknown; numbers: NumbersRead; encodedTwice?: string }): CertificateLayout {
  if (typeof parsed.json === 'number')
    return { ok: true, pretty: (parsed.encodedTwice ?? raw).replace(OUTER_SPACE, ''), roundedPastBound: false };
  try {
    const pretty = parsed.numbers === 'kept' ? stringifyKeepingNumbers(parsed.json, 2) : JSON.stringify(parsed.json, null, 2);
    return { ok: true, pretty, roundedPastBound: parsed.numbers === 'pastBound' };
  } catch {
    // Valid JSON nested too deep to print again.
    return { ok: false, problem: TOO_DEEP };
  }
}
