import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useLocation, navigate } from '../navigation.tsx';
import { archivesOnExtract } from '../../kyc/contract/archiving.ts';
import { type LookupKind, triesAsRecordId, triesAsRefId } from '../../kyc/contract/lookup.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { type ShownRecordId, shownRecordId } from '../../kyc/view/shown-record-id.ts';
import { listedRecordIdOfRecord } from '../api/listed-record-id.ts';
import { ApiError, asApiError } from '../api/api-error.ts';
import { useFailureDuringRetry } from '../api/failure-during-retry.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { metaQueries } from '../meta/meta-query.ts';
import { PrintHeader } from '../handoff/hand-off-bar.tsx';
import { certificateExport, fileExport, recordExport } from '../handoff/record-export.ts';
import { noteRecentStatus, rememberLookup } from '../recent/recent-lookups.ts';
import { candidatePath, lookupNoteOf, parseCandidatePath } from '../routes.ts';
import { usePageSession } from '../session/session-end.ts';
import { usePhoneWidth } from '../ui/phone-width.ts';
import { ArchiveWarning, archiveWarningOf } from './archive-warning.tsx';
import { CandidateActivity } from './candidate-activity.tsx';
import { candidateQueries, progressKeyOf } from './candidate-queries.ts';

export { startLookup } from './candidate-queries.ts';
import { CandidateError } from './candidate-error.tsx';
import { LookupNotes } from './lookup-notes.tsx';
import { RefreshFailed, refreshFailure } from './refresh-failed.tsx';
import { CandidateSkeleton } from './candidate-skeleton.tsx';
import { CandidateView } from './candidate-view.tsx';
import { useDownloadProgress } from './download-progress.ts';
import { StatusChangeBanner, useStatusChange } from './freshness.tsx';
import { serverClockOf } from '../api/server-clock.ts';
import { type LiveUpdate, LiveStatusLine, useLiveStatus, useShownRecord } from './live-status.tsx';
import { useCandidateTitle } from './page-title.ts';
import { dashboardPlace } from './dashboard-place.ts';
import { ReviewBar, useListPlace } from './review-bar.tsx';
import { CandidateActions } from './candidate-actions.tsx';
import { SimulateControls } from './simulate-controls.tsx';
import { StatusChangeToast } from './status-toast.tsx';
import { useStepSettled } from './step-settle.ts';

/** `/candidates/<kind>/<id>`: reads the route, looks the candidate up, shows the record or what went wrong. */
export function CandidatePage() {
  const { path, environment } = useEnvironment();
  const route = parseCandidatePath(path);
  if (!route || route.id === undefined) {
    const problem = route && 'problem' in route ? route.problem : 'This is not a candidate link.';
    return (
      <CandidateError error={new ApiError('invalid_id', problem)} kind={route?.kind ?? 'refId'} id="" onRetry={() => {}} retrying={false} />
    );
  }
  return <CandidateLookup key={`${environment}:${route.kind}:${route.id}`} kind={route.kind} id={route.id} />;
}

/** The lookup behind a candidate page: the query, what it means (archiving, a status change), and its effects. */
function useCandidateLookup(kind: LookupKind, id: string) {
  const { environment, info, meta, to } = useEnvironment();
  const location = useLocation();
  const note = lookupNoteOf(location.state);
  const session = usePageSession();
  // Reached by `j` or `k`: the full record only once the reviewer stays here (step-settle.ts).
  const settled = useStepSettled();
  const query = useQuery({ ...candidateQueries.lookup(kind, id, environment), enabled: settled });
  const failedBefore = useFailureDuringRetry(query, `${environment ?? ''}\n${kind}\n${id}`);
  const progress = useDownloadProgress(progressKeyOf(kind, id, environment));
  const queryClient = useQueryClient();
  const accepted = meta?.archivingKey?.accepted;
  // Read against the server's clock (its Date header): a browser whose clock is wrong is warned all the same.
  const clock = query.data ? serverClockOf(query.data) : undefined;
  // Also from an answer that could not be shown: its lookup started the deletion all the same.
  const archivesAt = query.data
    ? archivesOnExtract(query.data.willArchiveAtDate, clock?.answeredAtMs ?? query.dataUpdatedAt)
    : query.error instanceof ApiError
      ? archivesOnExtract(query.error.willArchiveAtDate, query.errorUpdatedAt)
      : undefined;
  const refused = query.error instanceof ApiError && query.error.code === 'archiving_key';
  const status = query.data?.status;
  const changedTo = useStatusChange(environment, kind, id, status ?? '');
  // A 24-hex id typed as a refId is most likely a recordId: tried once as one, automatically (the batch's rule too);
  // and a recordId the search box guessed from that form may be a refId: tried once as one. Never back again.
  const code = query.error instanceof ApiError ? query.error.code : undefined;
  const tried = note.triedAsRefId || note.triedAsRecordId || note.triedOtherKind;
  const retryAs =
    code && !tried
      ? triesAsRecordId(kind, id, code)
        ? 'recordId'
        : triesAsRefId(kind, code, note.guessed === true)
          ? 'refId'
          : undefined
      : undefined;
  const retryingAsOtherKind = retryAs !== undefined;

  useEffect(() => {
    if (!retryAs) return;
    const state = {
      cleaned: note.cleaned,
      dropped: note.dropped,
      ...(retryAs === 'recordId' ? { triedAsRefId: true } : { triedAsRecordId: true }),
    };
    navigate(to(candidatePath(retryAs, id)), { replace: true, state });
  }, [retryAs, to, id, note.cleaned, note.dropped]);
  // Under the environment's name once the server has said it: remembered before /api/meta answered, the
  // same lookup was kept twice, under "" and then under its name (code review, 29 November).
  const named = info?.name;
  useEffect(() => {
    if (status === undefined || named === undefined) return;
    rememberLookup({ kind, id, status, environment: named, at: new Date().toISOString() });
  }, [kind, id, status, named]);

  const archiveWarning = archiveWarningOf(archivesAt, clock?.offsetMs ?? 0, query.data);
  const detected = archiveWarning !== undefined || refused;
  useEffect(() => {
    // The server now knows the key archives: the home page learns it from /api/meta.
    if (detected) void queryClient.invalidateQueries({ queryKey: metaQueries.all() });
  }, [detected, queryClient]);

  return {
    environment,
    info,
    meta,
    note,
    session,
    query,
    failedBefore,
    progress,
    accepted,
    archiveWarning,
    status,
    changedTo,
    retryingAsOtherKind,
    settled,
  };
}

function CandidateLookup({ kind, id }: { kind: LookupKind; id: string }) {
  const lookup = useCandidateLookup(kind, id);
  const { environment, info, session, query, failedBefore, progress, retryingAsOtherKind, settled } = lookup;
  const live = useLiveStatus(info?.name, environment, kind, id, query.data, query.dataUpdatedAt);
  const { shown, update } = useShownRecord(query.data, query.dataUpdatedAt, live);
  const record = shown ?? query.data;
  const shownStatus = shown?.status;
  const recentEnvironment = info?.name;
  useEffect(() => {
    if (shownStatus !== undefined && recentEnvironment !== undefined)
      noteRecentStatus({ kind, id, status: shownStatus, environment: recentEnvironment });
  }, [kind, id, shownStatus, recentEnvironment]);
  useCandidateTitle(record, session?.role, kind);
  // The answer's own recordId, else the id asked or the applicants list's, said so (shown-record-id.ts).
  const recordId = record && query.data ? shownRecordId(record, { kind, id }, listedRecordIdOfRecord(query.data)) : undefined;
  const ids = record && { refId: record.refId, recordId: recordId?.id };
  const place = useListPlace(kind, id, environment, ids);
  const loading = (query.isPending && !failedBefore) || retryingAsOtherKind;
  return (
    <div className="space-y-4">
      <ReviewBar
        kind={kind}
        id={id}
        info={info}
        ids={ids}
        place={place}
        notFound={query.error instanceof ApiError && query.error.code === 'not_found'}
        settled={settled}
        dashboard={dashboardPlace(place !== undefined, loading ? 'loading' : showsRecord(query) ? 'shown' : 'failed') === 'bar'}
      />
      {loading ? (
        <CandidateSkeleton progress={progress} opening={settled ? undefined : { id, position: place?.position, total: place?.total }} />
      ) : (
        <CandidateResult
          lookup={lookup}
          kind={kind}
          id={id}
          shown={shown}
          update={update}
          recordId={recordId}
          listed={place !== undefined}
        />
      )}
      <StatusChangeToast update={update} />
    </div>
  );
}

/** Whether the page shows the record: it came, and no failure since says it may no longer be shown (refresh-failed.tsx). */
function showsRecord(query: { isError: boolean; error: unknown; data: unknown }): boolean {
  return query.data !== undefined && !(query.isError && !refreshFailure(query.error, true));
}

/** The lookup's answer: what went wrong, or the record with what the page says about it and the hand-off. */
function CandidateResult({
  lookup,
  kind,
  id,
  shown,
  update,
  recordId,
  listed,
}: {
  lookup: ReturnType<typeof useCandidateLookup>;
  kind: LookupKind;
  id: string;
  shown: CandidateRecord | undefined;
  update: LiveUpdate | undefined;
  recordId: ShownRecordId | undefined;
  /** Opened from a list (the queue, a batch): the bar above holds the dashboard link. */
  listed: boolean;
}) {
  const { environment, info, note, session, query, accepted, archiveWarning, status, changedTo } = lookup;
  const phone = usePhoneWidth();
  const notes = <LookupNotes note={note} kind={kind} id={id} />;
  // A refresh that failed leaves the record on screen, unless the failure says it may no longer be shown.
  const refreshFailed = query.isError ? refreshFailure(query.error, query.data !== undefined) : undefined;
  if (!showsRecord(query) || !query.data) return <LookupFailed lookup={lookup} kind={kind} id={id} notes={notes} />;
  // A support user's answer first (issue 33): on a phone the status, the recorded reason and hint and Copy
  // reply fit the first screen, above the ids; the hand-off goes under what the service recorded. On a
  // phone a compliance user's decision summary comes first in the same way (UX review: the first screen
  // held the bar, the hand-off and three ids, and no decision information).
  const answerFirst = session?.role === 'support' || phone;
  const actions = (
    <CandidateActions
      record={shown ?? query.data}
      fetched={query.data}
      kind={kind}
      id={id}
      recordId={recordId}
      dashboard={dashboardPlace(listed, 'shown') === 'row'}
      refresh={{ fetchedAt: query.dataUpdatedAt, refreshing: query.isFetching, start: () => void query.refetch() }}
    />
  );
  return (
    <>
      {info && <PrintHeader user={session?.user} info={info} />}
      {archiveWarning && <ArchiveWarning {...archiveWarning} accepted={accepted} />}
      {notes}
      {refreshFailed && (
        <RefreshFailed
          error={refreshFailed}
          fetchedAt={query.dataUpdatedAt}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      )}
      {update && <LiveStatusLine update={update} onRefresh={() => void query.refetch()} />}
      {changedTo && status && changedTo !== shown?.status && (
        <StatusChangeBanner from={status} to={changedTo} onReload={() => void query.refetch()} />
      )}
      <CandidateView
        record={shown ?? query.data}
        recordId={recordId}
        // Placed by CandidateView either way, so that crossing 640 px moves the row and keeps what it holds.
        answer={actions}
        answerFirst={answerFirst}
        recordCertificateCopy={(slug) => recordExport(environment, certificateExport(kind, id, slug))}
        recordFileSave={(name, type) => recordExport(environment, fileExport(kind, id, name, type))}
        activity={
          <CandidateActivity
            environment={environment}
            refId={(shown ?? query.data).refId ?? (kind === 'refId' ? id : undefined)}
            recordId={recordId?.id}
            user={session?.user}
            role={session?.role}
            fetchedAt={query.dataUpdatedAt}
          />
        }
      />
      {info?.upstream === 'sandbox' && <SimulateControls kind={kind} id={id} />}
    </>
  );
}

/** The lookup failed (and shows no record): why, with the notes on the id and the archive warning above it. */
function LookupFailed({
  lookup,
  kind,
  id,
  notes,
}: {
  lookup: ReturnType<typeof useCandidateLookup>;
  kind: LookupKind;
  id: string;
  notes: ReactNode;
}) {
  const { note, query, failedBefore, accepted, archiveWarning } = lookup;
  return (
    <>
      {notes}
      {archiveWarning && <ArchiveWarning {...archiveWarning} accepted={accepted} />}
      <CandidateError
        error={asApiError(query.error ?? failedBefore, 'The response could not be read.')}
        kind={kind}
        id={id}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        bothKinds={(kind === 'recordId' ? note.triedAsRefId : note.triedAsRecordId) || note.triedOtherKind}
      />
    </>
  );
}
