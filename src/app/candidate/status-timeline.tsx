import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { isKnownStatus, isStatusWord, type KnownStatus } from '../../kyc/contract/status.ts';
import { formatDuration, formatRelative } from '../../kyc/view/time.ts';
import {
  buildTimeline,
  LATER_DATE_WORDS,
  type Timeline,
  type TimelineStep,
  unreadDateWords,
  type UnreadStatusDate,
} from '../../kyc/view/timeline.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { Section } from '../ui/section.tsx';
import { toneDotClass } from '../ui/status-badge.tsx';
import { LongText } from '../ui/long-text.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/** What the previous step's date marks, as the end of "Approved 2 h after …" (a status's label reads wrong there: "after in review"). */
const STEP_EVENTS: Readonly<Record<KnownStatus, string>> = {
  incomplete: 'it was marked incomplete',
  waiting: 'submission',
  inreview: 'the review began',
  approved: 'approval',
  rejected: 'rejection',
  blocked: 'it was blocked',
  review_requested: 'a review was requested',
};

function afterText(step: TimelineStep, previous: TimelineStep | undefined): string | undefined {
  if (step.sincePrevious === undefined || !previous) return undefined;
  const status = previous.status.status;
  // An unknown word is quoted here; any other unknown status's label is quoted already (unknownStatusLabel).
  const since = isKnownStatus(status) ? STEP_EVENTS[status] : isStatusWord(status) ? `“${previous.status.label}”` : previous.status.label;
  return `${step.status.label} ${formatDuration(step.sincePrevious)} after ${since}`;
}

const CURRENT_CHIP = <span className="rounded bg-slate-900 px-1.5 py-0.5 text-xs font-medium text-white">Current status</span>;

/** A status date that could not be read: its status, and the value as sent (never a guessed time), after the ordered steps. */
function UnreadStep({ date }: { date: UnreadStatusDate }) {
  return (
    <li
      className="relative"
      data-status={date.status.status}
      data-unread-date={date.field}
      data-doubtful-date={date.doubt}
      aria-current={date.current ? 'step' : undefined}
    >
      <span
        aria-hidden="true"
        className="absolute top-1 -left-[29px] size-4 rounded-full border-2 border-dashed border-amber-600 bg-white"
      />
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">{date.status.label}</span>
        {date.current && CURRENT_CHIP}
      </div>
      <p className="text-sm break-words text-amber-900">
        <span className="font-mono text-xs">{date.field}</span>: {unreadDateWords(date)}
      </p>
      <p className="text-xs text-slate-500">
        Not placed in time order: {date.doubt ? 'this date cannot be right' : 'its time could not be read'}.
      </p>
    </li>
  );
}

/** The `…Date` fields that date no status (`lastLoginDate`), named as sent: never steps of the history. */
function OtherDates({ dates, now }: { dates: Timeline['otherDates']; now: Date }) {
  if (dates.length === 0) return null;
  return (
    <div className="mt-4" data-testid="other-dates">
      <h3 className="text-sm font-medium text-slate-700">Other dates</h3>
      <p className="text-xs text-slate-500">Dates the response carries that name no status, oldest first.</p>
      <dl className="mt-1 space-y-1 text-sm">
        {dates.map((date) => (
          <div key={date.field} className="flex min-w-0 flex-wrap gap-x-2" data-field={date.field}>
            <dt className="font-mono text-xs break-all text-slate-700">
              <LongText text={date.field} limit={60} />
            </dt>
            <dd>
              <TimeStamp date={date.at} now={now} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Every status date, oldest first, with the current status marked and the planned archiving last; the other dates under it. */
export function StatusTimeline({ record, now }: { record: CandidateRecord; now: Date }) {
  const timeline = buildTimeline(record, now);
  const zone = useZoneMode();
  return (
    <Section title="Status history">
      {timeline.steps.length === 0 && !timeline.willArchiveAt ? (
        <p className="text-sm text-slate-600">
          {timeline.unreadDates.length > 0 ? 'The response carries no readable status dates.' : 'The response carries no status dates.'}
        </p>
      ) : null}
      <ol className="relative space-y-4 border-l-2 border-slate-200 pl-5" aria-label="Status changes, oldest first">
        {timeline.steps.map((step, index) => (
          <li key={step.field} className="relative" data-status={step.status.status} aria-current={step.current ? 'step' : undefined}>
            <span
              aria-hidden="true"
              className={`absolute top-1 -left-[29px] size-4 rounded-full ring-2 ring-white ${step.current ? toneDotClass(step.status.status) : 'bg-slate-300'}`}
            />
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">{step.status.label}</span>
              {step.current && CURRENT_CHIP}
            </div>
            <TimeStamp date={step.at} now={now} />
            {step.laterExists && (
              <p className="text-xs text-amber-900" data-testid="later-date">
                Since this date is doubtful: {LATER_DATE_WORDS}.
              </p>
            )}
            {afterText(step, timeline.steps[index - 1]) && (
              <p className="text-xs text-slate-500">{afterText(step, timeline.steps[index - 1])}</p>
            )}
          </li>
        ))}
        {timeline.unreadDates.map((date) => (
          <UnreadStep key={`unread:${date.field}`} date={date} />
        ))}
        {timeline.undatedCurrent && (
          <li className="relative" aria-current="step" data-status={timeline.undatedCurrent.status}>
            <span
              aria-hidden="true"
              className={`absolute top-1 -left-[29px] size-4 rounded-full ring-2 ring-white ${toneDotClass(timeline.undatedCurrent.status)}`}
            />
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">{timeline.undatedCurrent.label}</span>
              {CURRENT_CHIP}
            </div>
            <p className="text-sm text-slate-600">No date for this status in the response.</p>
          </li>
        )}
        {timeline.willArchiveAt && (
          <li className="relative" data-status="will-archive">
            <span
              aria-hidden="true"
              className="absolute top-1 -left-[29px] size-4 rounded-full border-2 border-dashed border-slate-500 bg-white"
            />
            <span className="font-medium text-slate-900">
              {timeline.willArchiveAt > now ? 'Identity data will be archived' : 'Identity data due for archiving'}
            </span>
            <div>
              <TimeStamp date={timeline.willArchiveAt} now={now} future />
            </div>
            <p className="text-xs text-slate-500">
              {timeline.willArchiveAt > now
                ? `Upcoming, ${formatRelative(timeline.willArchiveAt, now, { zone, future: true })}: the API key archives records after extraction.`
                : 'The date has passed: the next lookup may return the record archived.'}
            </p>
          </li>
        )}
      </ol>
      <OtherDates dates={timeline.otherDates} now={now} />
    </Section>
  );
}
