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

export type ParsedCertificate =
  | { ok: true; json: unknown; pretty: string; summary: CertificateSummary }
  | { ok: false; raw: string; problem: string };

export interface CertificateSummary {
  issuer?: string;
  issueDate?: string;
  /** Provider result labels such as `clear`, `consider`, `no_match`, `potential_match`. */
  results: string[];
}

const RESULT_LABELS = new Set(['clear', 'consider', 'no_match', 'potential_match', 'unidentified', 'rejected', 'suspected']);

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
  return { ok: true, json, pretty, summary: summarise(json) };
}

function summarise(json: unknown): CertificateSummary {
  const doc = isObject(json) ? json : {};
  const organization = isObject(doc.Organization) ? doc.Organization : {};
  const claim = isObject(doc.Claim) ? doc.Claim : {};
  const results = new Set<string>();
  collectResults(claim.reviewBody, results, 0);
  return {
    issuer: typeof organization.legalName === 'string' ? organization.legalName : undefined,
    issueDate: typeof claim.issueDate === 'string' ? claim.issueDate : undefined,
    results: [...results],
  };
}

function collectResults(value: unknown, into: Set<string>, depth: number): void {
  if (depth > 6) return;
  if (typeof value === 'string' && RESULT_LABELS.has(value)) into.add(value);
  else if (Array.isArray(value) || isObject(value)) {
    for (const item of Object.values(value)) collectResults(item, into, depth + 1);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
