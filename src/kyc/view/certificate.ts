/** Certificates: a map from slug (`onfido-service-cert`) to a string that should hold JSON-LD. */

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

export function parseCertificate(raw: string): ParsedCertificate {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ok: false, raw, problem: `This certificate is not valid JSON (${(error as Error).message}).` };
  }
  let pretty: string;
  try {
    pretty = JSON.stringify(json, null, 2);
  } catch {
    // Valid JSON nested too deep to print again.
    return { ok: false, raw, problem: 'This certificate is nested too deeply to lay out.' };
  }
  return { ok: true, json, pretty };
}
