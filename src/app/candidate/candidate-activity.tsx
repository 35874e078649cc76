import { ColumnHeads } from '../ui/column-heads.tsx';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ACTIVITY_DAYS, type ActivityAnswer } from '../../kyc/contract/audit-search.ts';
import { readsAuditTrail, type Role, seesActivity } from '../../kyc/contract/roles.ts';
import { foldQueueViews, todaysLookers, trailMayLack } from '../../kyc/view/activity.ts';
import { actionText, levelText } from '../../kyc/view/audit-labels.ts';
import { formatRelative, type ZoneMode } from '../../kyc/view/time.ts';
import { asApiError } from '../api/api-error.ts';
import { Link } from '../navigation.tsx';
import { useEnvironment } from '../environment/use-environment.ts';
import { useShownRooms, useViewers, viewersOf } from '../live/presence.ts';
import { AUDIT_PATH, type AuditHandOver } from '../routes.ts';
import { AuditLevel } from '../ui/audit-level.tsx';
import { SourceNote } from '../ui/audit-source-note.tsx';
import { Card } from '../ui/card.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { activityQueries } from './activity-query.ts';

/**
 * "Activity" (issue 34), for compliance users and leads: who looked this candidate up in this
 * environment, at what level, when, who saw them in the queue (any view that showed their row), and what they carried
 * out of the page, the last 90 days, newest first. Its first line answers "has someone already looked at this today?". Support users never see it
 * (nor may they ask for it), and it is not printed.
 */
export function CandidateActivity(props: {
  environment: string | undefined;
  refId: string | undefined;
  recordId: string | undefined;
  user: string | undefined;
  role: Role | undefined;
  /** When the record was fetched: a Refresh (a new lookup, a new line) reads the Activity again. */
  fetchedAt: number;
}) {
  if (!seesActivity(props.role) || (!props.refId && !props.recordId)) return null;
  return <ActivityCard {...props} />;
}

function ActivityCard({ environment, refId, recordId, user, role, fetchedAt }: Parameters<typeof CandidateActivity>[0]) {
  const id = useId();
  const { info } = useEnvironment();
  // A colleague who opens the page has looked the candidate up: their line is read as they come.
  const viewers = viewersOf(useViewers(), info?.name, useShownRooms(info?.name, refId, recordId)).join('\n');
  const ids = { ...(refId ? { refId } : {}), ...(recordId ? { recordId } : {}) };
  const activity = useQuery({ ...activityQueries.of(environment, ids, fetchedAt, viewers), placeholderData: keepPreviousData });
  const now = useNow();
  const zone = useZoneMode();
  return (
    <Card as="section" aria-labelledby={id} className="print:hidden" data-testid="activity">
      <details
        onToggle={(event) => {
          // Opened: read again, so that what it lists is the trail as it is now.
          if (event.currentTarget.open) void activity.refetch();
        }}
      >
        <summary className="cursor-pointer rounded focus-ring">
          <h2 id={id} className="inline text-base font-semibold text-slate-900">
            Activity
          </h2>{' '}
          <span className="text-sm text-slate-700">
            {activity.data ? todayText(activity.data, user, now, zone) : activity.error ? 'could not be read' : 'reading the audit trail…'}
          </span>
        </summary>
        <div className="mt-3 space-y-2">
          {activity.error && <p className="text-sm text-red-800">{asApiError(activity.error, 'The answer could not be read.').message}</p>}
          {activity.data && <ActivityList answer={activity.data} user={user} ids={ids} />}
          {readsAuditTrail(role) && (
            <p className="text-sm">
              <Link
                to={AUDIT_PATH}
                state={{ audit: { ...ids, ...(info?.name ? { env: info.name } : {}) } } satisfies AuditHandOver}
                className="rounded text-blue-800 underline underline-offset-2 focus-ring"
              >
                The whole trail, on the audit page
              </Link>
            </p>
          )}
        </div>
      </details>
    </Card>
  );
}

/**
 * "Looked at today by ben (2 hours ago), and by you." / "Nobody else has looked at this candidate today." (with
 * ", as far as could be read (this server's audit files only)" when the trail may lack lines); and
 * who only saw them in the queue, whose lines the list shows: "Nobody else has opened this candidate today;
 * 2 saw them in the queue (dave, carol)."; and whose answers were cut short, never counted as a look:
 * "No answer to anyone else arrived whole today; answer cut short for carol."
 */
function todayText(answer: ActivityAnswer, user: string | undefined, now: Date, zone: ZoneMode): string {
  const today = todaysLookers(answer.rows, user, now, zone);
  const cut = today.cutShort;
  const cutShort =
    cut.length === 0
      ? ''
      : cut.length === 1
        ? `; answer cut short for ${cut[0]}`
        : `; answers cut short for ${cut.length} (${cut.join(', ')})`;
  const queue = today.inQueue;
  const inQueue =
    queue.length === 0
      ? ''
      : queue.length === 1
        ? `; ${queue[0]} saw them in the queue`
        : `; ${queue.length} saw them in the queue (${queue.join(', ')})`;
  if (today.others.length === 0) {
    // A claim that nobody did: only as far as the trail could be read, when it may lack lines (trailMayLack).
    const lack = trailMayLack(answer);
    const asRead = lack ? `, as far as could be read (${lack})` : '';
    if (cutShort) return `No answer to anyone else arrived whole today${asRead}${cutShort}${inQueue}.`;
    return inQueue
      ? `Nobody else has opened this candidate today${asRead}${inQueue}.`
      : `Nobody else has looked at this candidate today${asRead}.`;
  }
  const others = today.others.map((other) => `${other.user} (${formatRelative(other.at, now, { zone })})`);
  return `Looked at today by ${others.join(', ')}${today.you ? ', and by you' : ''}${cutShort}${inQueue}.`;
}

/**
 * What came of it, when it was not an answer: " (cancelled)" when the browser left first, " (refused: <code>)",
 * or for an answer cut short what it would have been answered.
 */
function outcomeOf(row: ActivityRow): string {
  if (row.status === null || row.status < 400) return '';
  if (row.action === 'cut')
    return ` (${row.code === 'cancelled' ? 'the client left before its end' : `would have been: ${row.code ?? row.status}`})`;
  return row.code === 'cancelled' ? ' (cancelled before the answer)' : ` (refused: ${row.code ?? row.status})`;
}

/**
 * A lookup of another candidate whose answer was this one's record (other_candidate): the search found it
 * by the id that record gave (answered-record.ts), and its row names the id asked, so "sam — Looked up
 * (refused)" read as sam looking this candidate up. Said as what happened to this candidate's record.
 */
function answeredText(row: ActivityRow, ids: CandidateIds): string | undefined {
  const own = row.kind === null ? undefined : ids[row.kind];
  if (row.code !== 'other_candidate' || own === undefined || row.id === own) return undefined;
  const what = row.action === 'cut' ? 'part of it was sent before the answer was cut short' : 'refused, nothing of it sent';
  return `Asked for ${row.kind} ${row.id}; the service answered with this candidate's record: ${what}`;
}

type ActivityRow = ActivityAnswer['rows'][number];
type CandidateIds = { refId?: string; recordId?: string };

function ActivityList({ answer, user, ids }: { answer: ActivityAnswer; user: string | undefined; ids: CandidateIds }) {
  const note = <SourceNote answer={answer} onwards="older lines were not read." />;
  if (answer.rows.length === 0)
    return (
      <>
        {note}
        <p className="text-sm text-slate-600">
          Nobody has looked at this candidate in the last {ACTIVITY_DAYS} days{trailMayLack(answer) ? ', as far as could be read' : ''}.
        </p>
      </>
    );
  return (
    <>
      {note}
      <table data-stack className="w-full text-left text-sm">
        <caption className="sr-only">Who looked at this candidate, newest first</caption>
        <ColumnHeads look="plain" cell="py-1 pr-3" columns={['When', 'Who', 'What', 'Level']} />
        <tbody className="divide-y divide-slate-100">
          {foldQueueViews(answer.rows).map(({ row, views }) => (
            <tr key={row.hash}>
              <td className="py-1 pr-3 whitespace-nowrap">
                <TimeStamp date={new Date(row.time)} />
                {/* After a break in its instance's audit chain (the audit page's alert): the line may have been changed or added. */}
                {row.unvouched && (
                  <span className="block text-xs font-medium whitespace-normal text-red-900">Not vouched for by the chain</span>
                )}
              </td>
              <td className="py-1 pr-3 break-words" data-label="Who">
                {row.user === user ? 'you' : row.user} <span className="text-xs text-slate-600">{row.role}</span>
              </td>
              <td className="py-1 pr-3" data-label="What">
                {answeredText(row, ids) ?? `${actionText(row)}${outcomeOf(row)}`}
                {views && (
                  <span data-testid="queue-views">
                    , {views.count} times since <TimeStamp date={new Date(views.since)} />
                  </span>
                )}
              </td>
              {/* A queue view or a copy has no level: left out of a phone's stacked row (styles.css), not listed empty. */}
              <td className="py-1" data-label="Level" data-empty={levelText(row) ? undefined : true}>
                <AuditLevel row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-slate-600">
        The last {ACTIVITY_DAYS} days{answer.more ? `, the newest ${answer.rows.length} of them` : ''}
        {answer.source.kind === 'files' ? ", from this server's audit files" : ''}.
      </p>
    </>
  );
}
