import { useId, useMemo } from 'react';
import { MAX_VALUES_KEEPING_NUMBERS } from '../../kyc/contract/number-text.ts';
import { ROUNDED_WORDS } from '../../kyc/contract/other-forms.ts';
import { readTimestamp } from '../../kyc/contract/schema.ts';
import {
  type CertificateReview,
  certificateLabel,
  certificateOutcome,
  reviewOf,
  type ReviewRow,
} from '../../kyc/view/certificate-review.ts';
import { layOutCertificate, type ParsedCertificate, parseCertificate } from '../../kyc/view/certificate.ts';
import { useServerAnswers } from '../session/server-back.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { LongText } from '../ui/long-text.tsx';
import { OutcomeChip } from '../ui/outcome-chip.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { ServerAnswersContext } from '../ui/server-answers.ts';
import { Notice, Section } from '../ui/section.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { JsonText } from './json-text.tsx';

const boxClass = 'max-h-96 rounded bg-slate-900 p-3 text-xs text-slate-100 focus-visible:outline-offset-2';
/** On paper a box cannot scroll: a certificate that is not JSON prints whole, dark on white. */
const printedBoxClass = `${boxClass} print:max-h-none print:overflow-visible print:bg-white print:p-0 print:text-slate-900`;

/**
 * One panel per certificate: the provider's results as rows, the JSON-LD one click away. Its copy is a
 * hand-off like Copy summary: `recordCopy` writes the audit line (naming the slug) before anything is copied.
 * A copy refused for want of the server says when it answers again, as Copy summary does (ServerAnswersContext).
 */
export function Certificates({ certs, recordCopy }: { certs: Record<string, string>; recordCopy: (slug: string) => Promise<void> }) {
  const entries = Object.entries(certs);
  const answers = useServerAnswers();
  return (
    <ServerAnswersContext value={answers}>
      <Section title="Certificates">
        {entries.length === 0 ? (
          <p className="text-sm text-slate-600">No certificates.</p>
        ) : (
          <div className="space-y-4">
            {entries.map(([slug, raw]) => (
              <CertificatePanel key={slug} slug={slug} raw={raw} recordCopy={() => recordCopy(slug)} />
            ))}
          </div>
        )}
      </Section>
    </ServerAnswersContext>
  );
}

function RowValue({ row }: { row: ReviewRow }) {
  if (row.kind === 'outcome') return <OutcomeChip value={row.value} foundAt={row.path} />;
  if (row.kind === 'date') return <DateOrText text={row.value} limit={200} />;
  return <LongText text={row.value} limit={200} />;
}

/** Only a full ISO timestamp (in any of its forms: readTimestamp) is shown with its zone; anything else as written. */
function DateOrText({ text, limit, inline = false }: { text: string; limit: number; inline?: boolean }) {
  const date = readTimestamp(text);
  return date ? <TimeStamp date={new Date(date)} inline={inline} /> : <LongText text={text} limit={limit} />;
}

/** Where a value was read, so that a reviewer can find it in the raw JSON. */
function RowPath({ path }: { path: string }) {
  return (
    <span className="block text-xs text-slate-500" data-path>
      found at <code className="break-all">{path ? <LongText text={path} limit={120} /> : 'the document itself'}</code>
    </span>
  );
}

/** Who the document says issued and signed it: stated, not checked, and said so. */
function Signatures({ review }: { review: CertificateReview }) {
  return (
    <div className="mt-3 space-y-1 border-t border-slate-100 pt-2 text-xs text-slate-600" data-signatures>
      <p>
        Issued by{' '}
        <span className="font-medium text-slate-800">
          {review.issuer ? <LongText text={review.issuer} limit={100} /> : 'an issuer the document does not name'}
        </span>
        {' · '}
        <span className="font-medium">signatures not verified by this app</span>
      </p>
      {review.signatures.length > 0 && (
        <ul aria-label="Signatures as the document states them" className="space-y-0.5">
          {review.signatures.map((signature, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a document's signatures never move, and two may read alike.
            <li key={index} className="break-all">
              <LongText text={signature.type ?? 'Signature of an unstated type'} limit={80} />
              {signature.creator && (
                <>
                  {' by '}
                  <LongText text={signature.creator} limit={120} />
                </>
              )}
              {signature.created && (
                <>
                  {', created '}
                  <DateOrText text={signature.created} limit={60} inline />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CertificatePanel({ slug, raw, recordCopy }: { slug: string; raw: string; recordCopy: () => Promise<void> }) {
  const headingId = useId();
  const parsed = useMemo(() => parseCertificate(raw), [raw]);
  const review = useMemo(() => (parsed.ok ? reviewOf(parsed.json, slug) : undefined), [parsed, slug]);
  // One that does not parse gets the decision summary's chip (its outcome read from the text, else "unreadable"), not a word of its own.
  const unparsed = useMemo(() => (parsed.ok ? undefined : certificateOutcome(slug, raw)), [parsed, slug, raw]);
  const title = certificateLabel(slug, review);
  return (
    <article aria-labelledby={headingId} className="min-w-0 rounded-lg border border-slate-200 p-4" data-cert={slug}>
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 id={headingId} className="font-semibold text-slate-900">
          {title}
        </h3>
        <code className="text-xs break-all text-slate-600">{slug}</code>
        {review && <OutcomeChip value={review.outcome} foundAt={review.outcomePath} />}
        {unparsed && (
          <>
            <OutcomeChip value={unparsed.outcome} foundAt={unparsed.path} stated={unparsed.stated} />
            <span className="text-xs text-slate-600">
              {!parsed.ok && parsed.text !== raw ? 'JSON text holding text, not read' : 'not valid JSON'}
            </span>
          </>
        )}
      </div>
      {parsed.ok && review ? (
        <>
          {parsed.encodedTwice !== undefined && <EncodedTwiceNote />}
          {/* Label beside value from `sm` up; on a phone each value under its label, the width its own. */}
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]" data-testid="review-rows">
            {review.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two keys can make one label (`checkType`, `check_type`); the rows never move.
              <div key={index} className="contents">
                <dt className="font-medium break-words text-slate-600 max-sm:mt-1 sm:max-w-56">
                  <LongText text={row.label} limit={80} />
                </dt>
                <dd className="min-w-0 break-words text-slate-900">
                  <RowValue row={row} />
                  {row.path !== undefined && row.kind !== 'date' && <RowPath path={row.path} />}
                </dd>
              </div>
            ))}
          </dl>
          {review.omitted > 0 && (
            <p className="mt-2 text-xs text-slate-600">{review.omitted.toLocaleString()} more values are in the raw JSON.</p>
          )}
          <Signatures review={review} />
          {/* A case file gets the results above; the JSON-LD and its signatures stay on screen. */}
          <RawJson raw={raw} parsed={parsed} title={title} recordCopy={recordCopy} />
        </>
      ) : (
        <div className="space-y-2">
          <Notice tone="warning">{!parsed.ok && parsed.problem} The raw text is shown as received.</Notice>
          <CertificateText text={raw} title={title} recordCopy={recordCopy} boxClassName={printedBoxClass} />
        </div>
      )}
    </article>
  );
}

/** A certificate read once more (certificate-json.ts): said as the other forms the service sends are (SentAsObjectNote). */
function EncodedTwiceNote() {
  return (
    <div className="mb-3" data-testid="encoded-twice">
      <Notice>
        The KYC service sent this certificate encoded twice (JSON text holding its JSON as text), not as the text its documentation
        describes: it is shown as read once more.
      </Notice>
    </div>
  );
}

type ReadCertificate = Extract<ParsedCertificate, { ok: true }>;

/**
 * The JSON-LD one click away. Laid out here, once per certificate text: the chips and Copy summary need
 * only the JSON read, and the layout of a large certificate costs as much as reading it. Not kept beyond
 * the panel (a cache by text would hold a candidate's certificate after the page that showed it).
 */
function RawJson({
  raw,
  parsed,
  title,
  recordCopy,
}: {
  raw: string;
  parsed: ReadCertificate;
  title: string;
  recordCopy: () => Promise<void>;
}) {
  const layout = useMemo(() => layOutCertificate(raw, parsed), [raw, parsed]);
  const text = layout.ok ? layout.pretty : raw;
  return (
    <details className="group mt-3 min-w-0 rounded border border-slate-200 print:hidden" data-raw-json>
      <summary className="cursor-pointer list-none rounded px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-ring">
        <span aria-hidden="true" className="mr-1.5 inline-block text-slate-500 transition-transform group-open:rotate-90">
          ▶
        </span>
        Raw JSON
      </summary>
      <div className="space-y-2 border-t border-slate-200 p-3">
        {!layout.ok && <Notice tone="warning">{layout.problem} The raw text is shown as received.</Notice>}
        {layout.ok && layout.roundedPastBound && (
          <Notice tone="warning">
            This certificate holds more than {MAX_VALUES_KEEPING_NUMBERS.toLocaleString('en')} values, too many to keep each number as
            written: its numbers are shown as read (1e21 as 1e+21), and for a number {ROUNDED_WORDS}.
          </Notice>
        )}
        <CertificateText text={text} title={title} recordCopy={recordCopy} boxClassName={boxClass} />
      </div>
    </details>
  );
}

/** A certificate's text with its Copy button: the raw view's, and the fallback's for a text that is not JSON. */
function CertificateText({
  text,
  title,
  recordCopy,
  boxClassName,
}: {
  text: string;
  title: string;
  recordCopy: () => Promise<void>;
  boxClassName: string;
}) {
  return (
    <>
      <div className="flex flex-row-reverse flex-wrap items-center gap-2">
        <CopyButton value={text} label={`${title} certificate`} record={recordCopy} />
      </div>
      <ScrollRegion label={`${title} certificate text`} className={boxClassName}>
        <JsonText text={text} />
      </ScrollRegion>
    </>
  );
}
