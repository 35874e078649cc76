import type { LookupKind } from '../../src/kyc/contract/lookup.ts';
import type { Behaviour } from './fake-upstream.ts';
import { rawRequest } from './http.ts';
import { recordAsked } from './user-lookups.ts';

/**
 * An export (a copy, a print) is accepted only for a candidate its user was answered a lookup of
 * (opened-candidates.ts), as the candidate page always has been before its hand-off bar shows. The
 * tests of the export's other rules look the candidate up first with `lookedUp`, as the page does.
 */

/** The fake service's answer to a lookup: a record of the very candidate asked for, by refId or recordId. */
export const answersAsked: Behaviour = (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'success', data: recordAsked(req.url ?? '') }));
};

/** `headers`' user looks the candidate up (in `environment`'s API when named), and is answered 200: else it throws. */
export async function lookedUp(
  port: number,
  candidate: { kind: LookupKind; id: string },
  headers: Record<string, string>,
  environment?: string,
): Promise<void> {
  const prefix = environment ? `/api/e/${environment}` : '/api';
  const res = await rawRequest(port, `${prefix}/candidates/${candidate.kind}/${encodeURIComponent(candidate.id)}`, { headers });
  if (res.status !== 200) throw new Error(`The lookup of ${candidate.kind} ${candidate.id} was answered ${res.status}: ${res.body}`);
}
