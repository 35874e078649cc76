import { decodeIdSegment, isLookupKind, type LookupKind } from '../kyc/contract/lookup.ts';

/** `/candidates/<kind>/<id>`: the id percent-encoded as one segment, so back, reload and shared links work. */
export function candidatePath(kind: LookupKind, id: string): string {
  return `/candidates/${kind}/${encodeURIComponent(id)}`;
}

export type CandidateRoute = { kind: LookupKind; id: string } | { kind: LookupKind | undefined; id: undefined; problem: string };

/** Reads the kind and id from the raw (still encoded) pathname. */
export function parseCandidatePath(pathname: string): CandidateRoute | undefined {
  const match = /^\/candidates\/([^/]+)\/(.*)$/.exec(pathname);
  if (!match) return undefined;
  const [, kind, encoded] = match as unknown as [string, string, string];
  if (!isLookupKind(kind))
    return { kind: undefined, id: undefined, problem: `"${kind}" is not a way to look candidates up: use refId or recordId.` };
  const decoded = decodeIdSegment(encoded);
  if (decoded.ok) return { kind, id: decoded.id };
  const problem =
    decoded.problem === 'not_one_segment'
      ? 'The id in this link is not one path segment.'
      : 'The id in this link is not correctly percent-encoded.';
  return { kind, id: undefined, problem };
}
