import { useId } from 'react';
import { isoTimestampSchema } from '../../kyc/contract/schema.ts';
import { certificateLabel, reviewOf, type ReviewRow } from '../../kyc/view/certificate-review.ts';
import { parseCertificate } from '../../kyc/view/certificate.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { LongText } from '../ui/long-text.tsx';
import { OutcomeChip } from '../ui/outcome-chip.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { Notice, Section } from '../ui/section.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

const boxClass = 'max-h-96 rounded bg-slate-900 p-3 text-xs text-slate-100 focus-visible:outline-offset-2';
/** On paper a box cannot scroll: a certificate that is not JSON prints whole, dark on white. */
const printedBoxClass = `${boxClass} print:max-h-none print:overflow-visible print:bg-white print:p-0 print:text-slate-900`;

/** One panel per certificate: the provider's results as rows, the JSON-LD one click away. */
export function Certificates({ certs }: { certs: Record<string, string> }) {
  const entries = Object.entries(certs);
  return (
    <Section title="Certificates">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600">No certificates.</p>
      ) : (
        <div className="space-y-4">
          {entries.map(([slug, raw]) => (
            <CertificatePanel key={slug} slug={slug} raw={raw} />
          ))}
        </div>
      )}
    </Section>
  );
}

function RowValue({ row }: { row: ReviewRow }) {
  if (row.kind === 'outcome') return <OutcomeChip value={row.value} />;
  // Only a full ISO timestamp is shown with its zone; anything else as written.
  if (row.kind === 'date' && isoTimestampSchema.safeParse(row.value).success) return <TimeStamp date={new Date(row.value)} />;
  return <LongText text={row.value} limit={200} />;
}

function CertificatePanel({ slug, raw }: { slug: string; raw: string }) {
  const headingId = useId();
  const parsed = parseCertificate(raw);
  const review = parsed.ok ? reviewOf(parsed.json, slug) : undefined;
  const title = certificateLabel(slug, review);
  return (
    <article aria-labelledby={headingId} className="min-w-0 rounded-lg border border-slate-200 p-4" data-cert={slug}>
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 id={headingId} className="font-semibold text-slate-900">
          {title}
        </h3>
        <code className="text-xs break-all text-slate-600">{slug}</code>
        {review?.outcome && <OutcomeChip value={review.outcome} />}
        {!parsed.ok && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">not valid JSON</span>}
      </div>
      {parsed.ok && review ? (
        <>
          <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm" data-testid="review-rows">
            {review.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two keys can make one label (`checkType`, `check_type`); the rows never move.
              <div key={index} className="contents">
                <dt className="max-w-56 font-medium break-words text-slate-600">
                  <LongText text={row.label} limit={80} />
                </dt>
                <dd className="min-w-0 break-words text-slate-900">
                  <RowValue row={row} />
                </dd>
              </div>
            ))}
          </dl>
          {review.omitted > 0 && (
            <p className="mt-2 text-xs text-slate-600">{review.omitted.toLocaleString()} more values are in the raw JSON.</p>
          )}
          {/* A case file gets the results above; the JSON-LD and its signatures stay on screen. */}
          <details className="group mt-3 min-w-0 rounded border border-slate-200 print:hidden" data-raw-json>
            <summary className="cursor-pointer list-none rounded px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-ring">
              <span aria-hidden="true" className="mr-1.5 inline-block text-slate-500 transition-transform group-open:rotate-90">
                ▶
              </span>
              Raw JSON
            </summary>
            <div className="space-y-2 border-t border-slate-200 p-3">
              <div className="flex justify-end">
                <CopyButton value={parsed.pretty} label={`${title} certificate`} />
              </div>
              <ScrollRegion label={`${title} certificate text`} className={boxClass}>
                <pre className="break-all whitespace-pre-wrap">{parsed.pretty}</pre>
              </ScrollRegion>
            </div>
          </details>
        </>
      ) : (
        <div className="space-y-2">
          <Notice tone="warning">{!parsed.ok && parsed.problem} The raw text is shown as received.</Notice>
          <div className="flex justify-end">
            <CopyButton value={raw} label={`${title} certificate`} />
          </div>
          <ScrollRegion label={`${title} certificate text`} className={printedBoxClass}>
            <pre className="break-all whitespace-pre-wrap">{raw}</pre>
          </ScrollRegion>
        </div>
      )}
    </article>
  );
}
