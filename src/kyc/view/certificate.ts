/** Certificates: a map from slug (`onfido-service-cert`) to a string that should hold JSON-LD. */

import { type NumbersRead, readJsonKeepingNumbers, stringifyKeepingNumbers } from '../contract/number-text.ts';
import { humanise } from './labels.ts';

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
  return PROVIDER_NAMES[provider.toLowerCase()] ?? humanise(provider);
}

/** A slug naming a provider this tool knows by name. */
export function isKnownProvider(slug: string): boolean {
  return Object.hasOwn(PROVIDER_NAMES, providerOf(slug).toLowerCase());
}

export type ParsedCertificate = { ok: true; json: unknown; numbers: NumbersRead } | { ok: false; raw: string; problem: string };

/** A certificate's raw JSON view: laid out, and whether its numbers are shown as read past the bound (may be rounded). */
export type CertificateLayout = { ok: true; pretty: string; roundedPastBound: boolean } | { ok: false; problem: string };

const TOO_DEEP = 'This certificate is nested too deeply to lay out.';

/**
 * The certificate read, each number's text kept where JavaScript would write it otherwise (number-text.ts).
 * Not laid out: the decision summary and Copy summary read only its JSON, on every render, and the layout
 * of a large certificate costs as much as reading it; layOutCertificate is for the raw JSON view.
 */
export function parseCertificate(raw: string): ParsedCertificate {
  try {
    const { value, numbers } = readJsonKeepingNumbers(raw);
    return { ok: true, json: value, numbers };
  } catch (error) {
    // Valid JSON nested too deep for the reviver's walk: as for the layout below, not "not valid JSON".
    if (error instanceof RangeError) return { ok: false, raw, problem: TOO_DEEP };
    return { ok: false, raw, problem: `This certificate is not valid JSON (${(error as Error).message}).` };
  }
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
export function layOutCertificate(raw: string, parsed: { json: unknown; numbers: NumbersRead }): CertificateLayout {
  if (typeof parsed.json === 'number') return { ok: true, pretty: raw.replace(OUTER_SPACE, ''), roundedPastBound: false };
  try {
    const pretty = parsed.numbers === 'kept' ? stringifyKeepingNumbers(parsed.json, 2) : JSON.stringify(parsed.json, null, 2);
    return { ok: true, pretty, roundedPastBound: parsed.numbers === 'pastBound' };
  } catch {
    // Valid JSON nested too deep to print again.
    return { ok: false, problem: TOO_DEEP };
  }
}
