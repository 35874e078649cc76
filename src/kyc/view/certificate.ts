/** Certificates: a map from slug (`onfido-service-cert`) to a string that should hold JSON-LD. */

import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../contract/number-text.ts';
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

export type ParsedCertificate = { ok: true; json: unknown; pretty: string } | { ok: false; raw: string; problem: string };

const TOO_DEEP = 'This certificate is nested too deeply to lay out.';

/**
 * The certificate read, and laid out for its raw JSON view with each number as the certificate's text
 * writes it (number-text.ts): `0.10000000000000001` and `12345678901234567890`, never JavaScript's `0.1`
 * and `12345678901234567000`, where the browser gives JSON.parse the source text.
 */
export function parseCertificate(raw: string): ParsedCertificate {
  let json: unknown;
  try {
    json = parseJsonKeepingNumbers(raw);
  } catch (error) {
    // Valid JSON nested too deep for the reviver's walk: as for the layout below, not "not valid JSON".
    if (error instanceof RangeError) return { ok: false, raw, problem: TOO_DEEP };
    return { ok: false, raw, problem: `This certificate is not valid JSON (${(error as Error).message}).` };
  }
  let pretty: string;
  try {
    pretty = stringifyKeepingNumbers(json, 2);
  } catch {
    // Valid JSON nested too deep to print again.
    return { ok: false, raw, problem: TOO_DEEP };
  }
  return { ok: true, json, pretty };
}
