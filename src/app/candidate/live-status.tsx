import { useEffect, useMemo, useRef, useState } from 'react';
import { DATE_DOUBT_WORDS, type DateDoubt, dateDoubt } from '../../kyc/contract/date-doubt.ts';
import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { attachUnreadFields } from '../../kyc/contract/record-reading.ts';
import { type CandidateRecord, isStatusLevelField, statusLevelOf, unreadFieldsOf } from '../../kyc/contract/schema.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { formatDateTime, formatRelative } from '../../kyc/view/time.ts';
import { asApiError } from '../api/api-error.ts';
import { attachPictureParts, picturePartsOf } from '../api/picture-parts.ts';
import { liveEventMatches, liveEventRemovesData } from '../live/live-event-text.ts';
import { useLiveEvents, useLiveResync } from '../live/live-stream.ts';
import { Button } from '../ui/button.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { checkStatus } from './freshness.tsx';

/**
 * What a live event told this page: a new status (from a status-level re-check), that the data is gone,
 * or that a change was reported but its re-check failed (`unchecked`: what failed, in the server's words).
 * `at` is when the server received the delivery; `statusDate` when the service says the status was
 * reached, if the delivery said so and the re-check found that same status.
 */
export type LiveUpdate =
  | {
      kind: 'status';
      checked: CandidateRecord;
      /** The status the page showed when the event came: "In review → Rejected". */
      from: string | undefined;
      at: string;
      statusDate?: string;
      /** Why `statusDate` cannot be right (date-doubt.ts): shown as sent, never read as the change's time. */
      dateDoubt?: DateDoubt;
      receivedAt: number;
    }
  | { kind: 'gone'; event: LiveEvent; receivedAt: number }
  | { kind: 'unchecked'; event: LiveEvent; problem: string; receivedAt: number };

/**
 * Listens for the service's events about this candidate (same environment, same refId or recordId). A
 * change re-checks the status at status level, so nothing of the identity or pictures is fetched again;
 * a deletion or an archiving is only said, as a re-check would find nothing.
 */
export function useLiveStatus(
  environmentName: string | undefined,
  urlEnvironment: string | undefined,
  kind: LookupKind,
  id: string,
  record: CandidateRecord | undefined,
  /** When the record was fetched: an update older than that is no longer on the page. */
  fetchedAt: number,
): LiveUpdate | undefined {
  const [update, setUpdate] = useState<LiveUpdate>();
  const pending = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => pending.current?.abort(), []);
  const check = (event: LiveEvent, record: CandidateRecord) => {
    pending.current?.abort();
    if (liveEventRemovesData(event)) {
      setUpdate({ kind: 'gone', event, receivedAt: Date.now() });
      return;
    }
    const controller = new AbortController();
    pending.current = controller;
    checkStatus(urlEnvironment, kind, id, controller.signal).then(
      (checked) => {
        // The event's date is of the event's status: shown only beside that status, not a later one the re-check found.
        const dated = event.statusDate && event.status === checked.status ? event.statusDate : undefined;
        const doubt = dated === undefined ? undefined : dateDoubt(Date.parse(dated), Date.now());
        const statusDate = dated === undefined ? {} : { statusDate: dated, ...(doubt ? { dateDoubt: doubt } : {}) };
        // What the page showed: the last update's status while it is newer than the record, else the record's.
        setUpdate((previous) => {
          const from = previous?.kind === 'status' && previous.receivedAt > fetchedAt ? previous.checked.status : record.status;
          return { kind: 'status', checked, from, at: event.at, ...statusDate, receivedAt: Date.now() };
        });
      },
      // A failed re-check leaves the record as it was, and says so: the reviewer is not left believing
      // nothing changed. Refresh, or the next event, tries again.
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const problem = asApiError(error, 'The status could not be read.').message;
        setUpdate({ kind: 'unchecked', event, problem, receivedAt: Date.now() });
      },
    );
  };
  useLiveEvents((event) => {
    if (record && liveEventMatches(event, environmentName, record)) check(event, record);
  });
  // The stream could not send all it missed: any of it may have named this candidate, so its status is read again.
  useLiveResync(() => {
    if (!record) return;
    const at = new Date().toISOString();
    const ids = { refId: record.refId ?? null, recordId: record.recordId ?? null };
    check(
      { environment: environmentName ?? '', event: 'resync', ...ids, status: null, isArchived: record.isArchived === true, at },
      record,
    );
  });
  return update;
}

/**
 * The record as the page shows it: the looked-up one with the status level of the latest re-check laid
 * over it (status, dates, archive flag), unless the record was fetched again since. Its pictures stay.
 */
/** The status a record's other fields (custom fields, identities) were read with, where a live check changed it since. */
const fetchedWithStatus = new WeakMap<CandidateRecord, string>();

/** The status the record's fields beyond the status level were read with, when a live update changed the status since; else undefined. */
export function statusFieldsWereReadWith(record: CandidateRecord): string | undefined {
  const status = fetchedWithStatus.get(record);
  return status !== undefined && status !== record.status ? status : undefined;
}

export function useShownRecord(record: CandidateRecord | undefined, fetchedAt: number, update: LiveUpdate | undefined) {
  const current = update && update.receivedAt > fetchedAt ? update : undefined;
  const checked = current?.kind === 'status' ? current.checked : undefined;
  const shown = useMemo(() => {
    if (!record || !checked) return record;
    const merged = { ...record, ...statusLevelOf(checked) };
    const parts = picturePartsOf(record);
    if (parts) attachPictureParts(merged, parts);
    // What could not be read: the re-check's of the status level, the record's of the rest.
    attachUnreadFields(merged, [
      ...unreadFieldsOf(record).filter((entry) => !isStatusLevelField(entry.field)),
      ...unreadFieldsOf(checked).filter((entry) => isStatusLevelField(entry.field)),
    ]);
    fetchedWithStatus.set(merged, fetchedWithStatus.get(record) ?? record.status);
    return merged;
  }, [record, checked]);
  return { shown, update: current };
}

/**
 * "Approved at 14 Jan 2021, 11:00 UTC — from the KYC service, received just now" when the delivery gave
 * the status's date, else "Approved at <when it was received> — from the KYC service"; that the service
 * deleted or archived the data; or that a change was reported and could not be checked, with Refresh.
 */
export function LiveStatusLine({ update, onRefresh }: { update: LiveUpdate; onRefresh: () => void }) {
  if (update.kind === 'unchecked') {
    const to = update.event.status ? ` (${statusInfo(update.event.status).label})` : '';
    return (
      <div
        role="status"
        className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-2 text-amber-950 print:hidden"
        data-testid="live-status"
      >
        <p className="min-w-0 flex-1">
          The KYC service reported a change to this candidate{to}, received <Received at={new Date(update.event.at)} />, but this page could
          not check it: {update.problem} The page still shows the candidate as it was.
        </p>
        <Button variant="secondary" size="md" onClick={onRefresh}>
          Refresh
        </Button>
      </div>
    );
  }
  if (update.kind === 'gone') {
    const deleted = update.event.event === 'user.deleted';
    return (
      <p role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 print:hidden" data-testid="live-status">
        {deleted ? 'The KYC service deleted this candidate' : "The KYC service archived this candidate's identity data"} at{' '}
        <TimeStamp date={new Date(update.event.at)} />:{' '}
        {deleted ? 'the data on this page is gone from the service.' : 'it is gone from the service.'}
      </p>
    );
  }
  // A change of status is announced once, by the notice in view (status-toast.tsx); the line then only shows it.
  const changed = update.from !== undefined && update.from !== update.checked.status;
  return (
    <p
      role={changed ? undefined : 'status'}
      className="rounded-xl border border-blue-200 bg-blue-50 px-4 py-2 text-blue-950 print:hidden"
      data-testid="live-status"
    >
      {statusInfo(update.checked.status).label} at <TimeStamp date={changeTime(update)} /> — from the KYC service
      {update.statusDate && !update.dateDoubt && (
        <>
          , received <Received at={new Date(update.at)} />
        </>
      )}
      {update.dateDoubt && `; the service dates it ${update.statusDate} (${DATE_DOUBT_WORDS[update.dateDoubt]})`}
    </p>
  );
}

const MINUTE = 60_000;

/** When the status changed: the service's own date of it, unless that cannot be right; else when the server received the delivery. */
export function changeTime(update: Extract<LiveUpdate, { kind: 'status' }>): Date {
  return new Date(update.statusDate && !update.dateDoubt ? update.statusDate : update.at);
}

/**
 * When the server received the delivery, relative to now: "just now" for the first minute (and for a
 * time ahead of this browser's clock, which is not the server's), then as every relative time of the
 * page; the moment itself on hover.
 */
function Received({ at }: { at: Date }) {
  const now = useNow();
  const zone = useZoneMode();
  const text = now.getTime() - at.getTime() < MINUTE ? 'just now' : formatRelative(at, now, { zone });
  return (
    <time dateTime={at.toISOString()} title={formatDateTime(at, { zone, seconds: true })}>
      {text}
    </time>
  );
}
