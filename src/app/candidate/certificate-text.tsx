import type { SyntheticEvent } from 'react';
import { MAX_VALUES_KEEPING_NUMBERS } from '../../kyc/contract/number-text.ts';
import { ROUNDED_WORDS } from '../../kyc/contract/other-forms.ts';
import { type CertificateLayout, layOutCertificate, type ParsedCertificate } from '../../kyc/view/certificate.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { Notice } from '../ui/section.tsx';
import { JsonText, MAX_LAID_OUT } from './json-text.tsx';

const boxClass = 'max-h-96 rounded bg-slate-900 p-3 text-xs text-slate-100 focus-visible:outline-offset-2';
/** On paper a box cannot scroll: a certificate that is not JSON prints whole, dark on white. */
export const printedBoxClass = `${boxClass} print:max-h-none print:overflow-visible print:bg-white print:p-0 print:text-slate-900`;

type ReadCertificate = Extract<ParsedCertificate, { ok: true }>;

/** A certificate's raw JSON open on the page: the text it was laid out from, the layout, and whether a line at a time. */
export interface RawView {
  raw: string;
  layout: CertificateLayout;
  laidOut: boolean;
}

/** The raw JSON views open on the page, by slug. */
export type RawViews = ReadonlyMap<string, RawView>;
export const NO_RAW_VIEWS: RawViews = new Map();

const textOf = ({ raw, layout }: Pick<RawView, 'raw' | 'layout'>) => (layout.ok ? layout.pretty : raw);

/**
 * The views with `slug`'s opened (its text and layout) or closed (undefined). An opened view is laid out a
 * line at a time while the views laid out so stay under MAX_LAID_OUT together, else it is one block of text
 * (JsonText): a bound on the page, not on each certificate, which let 20 certificates lay out 28,000 lines.
 * Decided once, as it opens: closing one does not change how the others look.
 */
export function withRawView(views: RawViews, slug: string, opened: Pick<RawView, 'raw' | 'layout'> | undefined): RawViews {
  const next = new Map(views);
  next.delete(slug);
  if (!opened) return next;
  const used = [...next.values()].reduce((sum, view) => sum + (view.laidOut ? textOf(view).length : 0), 0);
  return next.set(slug, { ...opened, laidOut: used + textOf(opened).length <= MAX_LAID_OUT });
}

/**
 * The JSON-LD one click away, laid out only once opened, and let go once closed: a closed view was laid
 * out all the same, and 20 certificates of 28,000 lines took 7.2 s to show (red team). Laid out once per
 * opening, in the toggle's handler: the chips and Copy summary need only the JSON read, and the layout of a
 * large certificate costs as much as reading it. Not kept beyond the view (a cache by text would hold a
 * candidate's certificate after the page that showed it). `view` is the page's (withRawView).
 */
export function RawJson({
  raw,
  parsed,
  title,
  view,
  onToggle,
  recordCopy,
}: {
  raw: string;
  parsed: ReadCertificate;
  title: string;
  view: RawView | undefined;
  onToggle: (opened: Pick<RawView, 'raw' | 'layout'> | undefined) => void;
  recordCopy: () => Promise<void>;
}) {
  // A view of an earlier text of the certificate (a live update changed it) is closed.
  const shown = view?.raw === raw ? view : undefined;
  const toggled = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const open = event.currentTarget.open;
    if (open === (shown !== undefined)) {
      // The page's own change toggles too: a view of an earlier text, closed above, lets go of its layout and its room.
      if (!open && view) onToggle(undefined);
      return;
    }
    onToggle(open ? { raw, layout: layOutCertificate(raw, parsed) } : undefined);
  };
  return (
    <details
      className="group mt-3 min-w-0 rounded border border-slate-200 print:hidden"
      data-raw-json
      open={shown !== undefined}
      onToggle={toggled}
    >
      <summary className="cursor-pointer list-none rounded px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-ring">
        <span aria-hidden="true" className="mr-1.5 inline-block text-slate-500 transition-transform group-open:rotate-90">
          ▶
        </span>
        Raw JSON
      </summary>
      {shown && (
        <div className="space-y-2 border-t border-slate-200 p-3">
          {!shown.layout.ok && <Notice tone="warning">{shown.layout.problem} The raw text is shown as received.</Notice>}
          {shown.layout.ok && shown.layout.roundedPastBound && (
            <Notice tone="warning">
              This certificate holds more than {MAX_VALUES_KEEPING_NUMBERS.toLocaleString('en')} values, too many to keep each number as
              written: its numbers are shown as read (1e21 as 1e+21), and for a number {ROUNDED_WORDS}.
            </Notice>
          )}
          <CertificateText text={textOf(shown)} title={title} recordCopy={recordCopy} boxClassName={boxClass} laidOut={shown.laidOut} />
        </div>
      )}
    </details>
  );
}

/** A certificate's text with its Copy button: the raw view's, and the fallback's for a text that is not JSON. */
export function CertificateText({
  text,
  title,
  recordCopy,
  boxClassName,
  laidOut,
}: {
  text: string;
  title: string;
  recordCopy: () => Promise<void>;
  boxClassName: string;
  /** A line at a time (JsonText), else one block of text. */
  laidOut: boolean;
}) {
  return (
    <>
      <div className="flex flex-row-reverse flex-wrap items-center gap-2">
        <CopyButton value={text} label={`${title} certificate`} record={recordCopy} />
      </div>
      <ScrollRegion label={`${title} certificate text`} className={boxClassName}>
        <JsonText text={text} laidOut={laidOut} />
      </ScrollRegion>
    </>
  );
}
