import { useId } from 'react';
import { formatDateTime, formatRelative, formatSoon, type ZoneMode } from '../../kyc/view/time.ts';
import { useZoneMode } from './zone-mode.ts';

/**
 * A moment with its zone, in the zone the reader chose (theirs or UTC), the other zone shown on hover
 * (and read out as its description), and optionally how long ago it was (in calendar days of the zone
 * shown, as every relative time: `formatRelative`). No Tab stop of its own: a page holds dozens, and
 * keyboard users get the other zone for every time at once from the header's UTC switch (Alt+Shift+U).
 */
export function TimeStamp({
  date,
  now,
  seconds = false,
  future = false,
  inline = false,
  clock = false,
}: {
  date: Date;
  now?: Date;
  seconds?: boolean;
  /**
   * A moment soon (a wait's end, said beside how long it runs): its time alone while it falls on today in
   * the zone shown (and likewise in the other zone, on hover), its date too on another day. A full date for a
   * wait of a minute was more to read than the wait.
   */
  clock?: boolean;
  /** In a line of text: the text's own size, not the stamp's (a certificate's signature line is smaller). */
  inline?: boolean;
  /** A deadline: a moment just ahead reads "in 3 minutes", not "just now" (formatRelative's clock skew). */
  future?: boolean;
}) {
  const zone = useZoneMode();
  const id = useId();
  const other = zone === 'utc' ? 'local' : 'utc';
  const shown = (as: ZoneMode) => (clock ? formatSoon : formatDateTime)(date, { zone: as, seconds });
  return (
    <span className={inline ? 'text-slate-700' : 'text-sm text-slate-700'}>
      <span className="group relative inline-block">
        <time
          dateTime={date.toISOString()}
          aria-describedby={id}
          className="cursor-help rounded underline decoration-slate-400 decoration-dotted underline-offset-2 focus-ring-offset"
        >
          {shown(zone)}
        </time>
        {/* display: none until shown, not just invisible: an invisible tooltip still takes room, and near a phone's right edge the page scrolled sideways. */}
        <span
          id={id}
          role="tooltip"
          className="pointer-events-none absolute top-full left-0 z-20 mt-1 hidden rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow group-hover:block"
        >
          {other === 'utc' ? 'In UTC: ' : 'In your time zone: '}
          {shown(other)}
        </span>
      </span>
      {now && (
        <>
          {' '}
          <span className="text-slate-600">({formatRelative(date, now, { zone, future })})</span>
        </>
      )}
    </span>
  );
}
