import { type Provider, sha256 as hex } from './certificates.ts';

/**
 * Where a certificate's `Claim` keeps the provider's results. The documented shape names
 * `{_customFields, issueDate, reviewBody}` and no more, so the sandbox shows the three layouts a viewer
 * must read alike:
 * - `review-body`: an object in `reviewBody` with `result` or `matchStatus` (the sandbox's first shape);
 * - `custom-fields`: the provider's own fields in `_customFields`, `reviewBody` holding no result;
 * - `json-checks`: `reviewBody` a string holding JSON, an array of checks, each with its own result.
 */
export type CertificateShape = 'review-body' | 'custom-fields' | 'json-checks';

export type ProviderResult = 'clear' | 'consider' | 'no_match' | 'potential_match';

export interface ClaimResults {
  reviewBody: Record<string, unknown> | string;
  /** The provider's fields for `_customFields`; absent: the candidate's own custom fields go there. */
  customFields?: Record<string, unknown>;
}

export interface ClaimInput {
  provider: Provider;
  result: ProviderResult;
  shape: CertificateShape;
  /** Makes the provider's ids (search id, check ids) stable across restarts: the candidate's recordId. */
  seed: string;
  issuedAt: string;
}

const SOURCES = ['sanctions', 'pep', 'adverse-media'];

/** A UUID v4 in form, made from the seed. */
const uuidOf = (seed: string) => {
  const h = hex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export function claimResults(input: ClaimInput): ClaimResults {
  const { provider, result, shape } = input;
  if (shape === 'custom-fields') {
    return provider === 'onfido'
      ? { reviewBody: { checkType: 'document' }, customFields: onfidoReportFields(input) }
      : { reviewBody: { checkType: 'aml_screening', sources: SOURCES }, customFields: amlScreeningFields(input) };
  }
  if (shape === 'json-checks') {
    return { reviewBody: JSON.stringify(provider === 'onfido' ? onfidoReports(input) : amlListChecks(input)) };
  }
  return {
    reviewBody:
      provider === 'onfido'
        ? { checkType: 'document', result, subResults: { visualAuthenticity: result, dataConsistency: 'clear' } }
        : { checkType: 'aml_screening', matchStatus: result, fuzziness: 0.6, sources: SOURCES },
  };
}

/** A ComplyAdvantage search as its API reports it, flattened into the certificate's `_customFields`. */
function amlScreeningFields({ result, seed, issuedAt }: ClaimInput): Record<string, unknown> {
  const hits = result === 'potential_match' ? 3 : 0;
  return {
    search_id: Number.parseInt(hex(`${seed}:search`).slice(0, 7), 16),
    search_ref: `${Math.floor(Date.parse(issuedAt) / 1000)}-${hex(`${seed}:ref`).slice(0, 8)}`,
    result,
    total_hits: hits,
    match_types: hits ? ['name_exact', 'year_of_birth'] : [],
    risk_level: hits ? 'high' : 'low',
    fuzziness: 0.6,
    search_profile: 'blockpass-default',
    filters: { types: ['sanction', 'pep', 'warning', 'adverse-media'], exact_match: false },
    created_at: issuedAt,
  };
}

/** One Onfido report, flat, in `_customFields`. */
function onfidoReportFields({ result, seed, issuedAt }: ClaimInput): Record<string, unknown> {
  return {
    report_id: uuidOf(`${seed}:report`),
    report_name: 'document',
    status: 'complete',
    result,
    sub_result: result,
    created_at: issuedAt,
  };
}

/** Onfido's reports of a check: the document is clear, the face comparison carries the check's result. */
function onfidoReports({ result, seed, issuedAt }: ClaimInput): Array<Record<string, unknown>> {
  const report = (name: string, reportResult: string, breakdown: Record<string, unknown>) => ({
    id: uuidOf(`${seed}:${name}`),
    name,
    status: 'complete',
    result: reportResult,
    ...(name === 'document' ? { sub_result: reportResult } : {}),
    created_at: issuedAt,
    breakdown,
  });
  return [
    report('document', 'clear', {
      data_comparison: { result: 'clear' },
      data_consistency: { result: 'clear' },
      image_integrity: { result: 'clear' },
      visual_authenticity: { result: 'clear' },
    }),
    report('facial_similarity_photo', result, {
      face_comparison: { result, properties: { score: result === 'clear' ? 0.93 : 0.41 } },
      image_integrity: { result: 'clear' },
      visual_authenticity: { result: 'clear' },
    }),
  ];
}

/** A screening as one check per list searched: the sanctions list carries the result. */
function amlListChecks({ result, seed }: ClaimInput): Array<Record<string, unknown>> {
  return SOURCES.map((source, i) => ({
    id: uuidOf(`${seed}:${source}`),
    name: source,
    match_status: i === 0 ? result : 'no_match',
  }));
}
