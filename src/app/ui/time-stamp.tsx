import { formatLocalDateTime, formatRelative, formatUtc } from '../../kyc/view/time.ts';

/** A moment as local date and time, relative time beside it, and UTC on hover. */
export function TimeStamp({ date, now }: { date: Date; now: Date }) {
  return (
    <span className="text-sm text-slate-700">
      <time
        dateTime={date.toISOString()}
        title={formatUtc(date)}
        className="cursor-help underline decoration-dotted decoration-slate-400 underline-offset-2"
      >
        {formatLocalDateTime(date)}
      </time>{' '}
      <span className="text-slate-500">({formatRelative(date, now)})</span>
    </span>
  );
}
