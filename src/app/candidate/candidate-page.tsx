import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { archivesOnExtract } from '../../kyc/contract/archiving.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { metaQuery } from '../meta/meta-query.ts';
import { parseCandidatePath } from '../routes.ts';
import { ArchiveWarning } from './archive-warning.tsx';
import { candidateQueries, progressKeyOf } from './candidate-queries.ts';
import { CandidateError } from './candidate-error.tsx';
import { CandidateSkeleton } from './candidate-skeleton.tsx';
import { CandidateView } from './candidate-view.tsx';
import { useDownloadProgress } from './download-progress.ts';
import { LookupError } from './lookup-error.ts';

/** `/candidates/<kind>/<id>`: reads the route, looks the candidate up, shows the record or what went wrong. */
export function CandidatePage() {
  const { pathname } = useLocation();
  const route = parseCandidatePath(pathname);
  if (!route || route.id === undefined) {
    const problem = route && 'problem' in route ? route.problem : 'This is not a candidate link.';
    return (
      <CandidateError
        error={new LookupError('invalid_id', problem)}
        kind={route?.kind ?? 'refId'}
        id=""
        onRetry={() => {}}
        retrying={false}
      />
    );
  }
  return <CandidateLookup key={`${route.kind}:${route.id}`} kind={route.kind} id={route.id} />;
}

function CandidateLookup({ kind, id }: { kind: LookupKind; id: string }) {
  const query = useQuery(candidateQueries.lookup(kind, id));
  const progress = useDownloadProgress(progressKeyOf(kind, id));
  const queryClient = useQueryClient();
  const accepted = useQuery(metaQuery()).data?.archivingKey?.accepted;
  const archivesAt = query.data ? archivesOnExtract(query.data.willArchiveAtDate, query.dataUpdatedAt) : undefined;
  const refused = query.error instanceof LookupError && query.error.kind === 'archiving_key';

  useEffect(() => {
    // No name or id in the title: titles end up in browser history and window lists.
    document.title = `Candidate (${kind}) · Candidate Lookup`;
  }, [kind]);

  const detected = archivesAt !== undefined || refused;
  useEffect(() => {
    // The server now knows the key archives: the home page learns it from /api/meta.
    if (detected) void queryClient.invalidateQueries({ queryKey: metaQuery().queryKey });
  }, [detected, queryClient]);

  if (query.isPending) return <CandidateSkeleton progress={progress} />;
  if (query.isError) {
    const error =
      query.error instanceof LookupError
        ? query.error
        : new LookupError('malformed', 'The response could not be read.', { detail: String(query.error) });
    return <CandidateError error={error} kind={kind} id={id} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }
  return (
    <>
      {archivesAt && (
        <div className="mb-5">
          <ArchiveWarning at={archivesAt} accepted={accepted} />
        </div>
      )}
      <CandidateView record={query.data} />
    </>
  );
}
