import { useCallback, useId, useMemo, useState } from 'react';
import { readTimestamp } from '../../kyc/contract/schema.ts';
import {
  type CertificateReview,
  certificateLabel,
  certificateOutcome,
  certificatesWorstFirst,
  reviewOf,
  type ReviewRow,
} from '../../kyc/view/certificate-review.ts';
import { parseCertificate } from '../../kyc/view/certificate.ts';
import { useServerAnswers } from '../session/server-back.ts';
import { LongText } from '../ui/long-text.tsx';
import { OutcomeChip } from '../ui/outcome-chip.tsx';
import { ServerAnswersContext } from '../ui/server-answers.ts';
import { Notice, Section } from '../ui/section.tsx';
import { ShowMore, useShownAtOnce } from '../ui/show-more.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { CertificateText, NO_RAW_VIEWS, printedBoxClass, RawJson, type RawView, type RawViews, withRawView } from './certificate-text.tsx';
import { MAX_LAID_OUT } from './json-text.tsx';
import { SENT_EMPTY } from './absent-sections.tsx';

/**
 * Panels on the page at first, and added by each "Show more", as the pictures are (PICTURES_AT_ONCE): a
 * record has a few certificates, but the service may send thousands, and 1,000 panels took 3.1 s to show,
 * 20,000 tiny ones 18 s (red team).
 */
export const CERTIFICATES_AT_ONCE = 24;

/**
 * A certificate that is not JSON is shown open, as received: laid out a line at a time up to its share of
 * the page's bound (one page of panels together at most MAX_LAID_OUT), else one block of text.
 */
const RECEIVED_LAID_OUT = MAX_LAID_OUT / CERTIFICATES_AT_ONCE;

/**
 * One panel per certificate: the provider's results as rows, the JSON-LD one click away. Its copy is a
 * hand-off like Copy summary: `recordCopy` writes the audit line (naming the slug) before anything is copied.
 * A copy refused for want of the server says when it answers again, as Copy summary does (ServerAnswersContext).
 * The raw JSON views open are the page's (withRawView): what they lay out is bounded together.
 */
export function Certificates({ certs, recordCopy }: { certs: Record<string, string>; recordCopy: (slug: string) => Promise<void> }) {
  // Past a page, the worst first (certificatesWorstFirst), as the summary's chips: a failure is never under Show more.
  const entries = useMemo(
    () =>
      Object.keys(certs).length <= CERTIFICATES_AT_ONCE
        ? Object.entries(certs)
        : certificatesWorstFirst(certs).map(({ slug, raw }): [string, string] => [slug, raw]),
    [certs],
  );
  const { shown, showMore } = useShownAtOnce(entries, CERTIFICATES_AT_ONCE);
  const [views, setViews] = useState<RawViews>(NO_RAW_VIEWS);
  const toggleRawJson = useCallback(
    (slug: string, opened: Pick<RawView, 'raw' | 'layout'> | undefined) => setViews((current) => withRawView(current, slug, opened)),
    [],
  );
  const answers = useServerAnswers();
  return (
    <ServerAnswersContext value={answers}>
      <Section title="Certificates">
        {entries.length === 0 ? (
          <p className="text-sm text-slate-600">No certificates.</p>
        ) : (
          <div className="space-y-4">
            {shown.map(([slug, raw]) => (
              <CertificatePanel
                key={slug}
                slug={slug}
                raw={raw}
                view={views.get(slug)}
                onRawJson={(opened) => toggleRawJson(slug, opened)}
                recordCopy={() => recordCopy(slug)}
              />
            ))}
          </div>
        )}
        <ShowMore shown={shown.length} total={entries.length} atOnce={CERTIFICATES_AT_ONCE} noun="certificates" onMore={showMore} />
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

type PanelProps = {
  slug: string;
  raw: string;
  /** Its raw JSON view, while open (withRawView). */
  view: RawView | undefined;
  onRawJson: (opened: Pick<RawView, 'raw' | 'layout'> | undefined) => void;
  recordCopy: () => Promise<void>;
};

/** A certificate's heading and slug are the service's text too: their direction controls shown as marks (LongText), never acting. */
function CertificatePanel({ slug, raw, view, onRawJson, recordCopy }: PanelProps) {
  const headingId = useId();
  const parsed = useMemo(() => parseCertificate(raw), [raw]);
  const review = useMemo(() => (parsed.ok ? reviewOf(parsed.json, slug) : undefined), [parsed, slug]);
  // One that does not parse gets the decision summary's chip (its outcome read from the text, else "unreadable"), not a word of its own.
  const unparsed = useMemo(() => (parsed.ok ? undefined : certificateOutcome(slug, raw)), [parsed, slug, raw]);
  const title = certificateLabel(slug, review);
  // Sent as empty text (or spaces alone): said so, not as JSON that ended early.
  const empty = raw.trim() === '';
  return (
    <article aria-labelledby={headingId} className="min-w-0 rounded-lg border border-slate-200 p-4" data-cert={slug}>
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 id={headingId} className="font-semibold break-words text-slate-900">
          <LongText text={title} limit={100} />
        </h3>
        <code className="text-xs break-all text-slate-600">
          <LongText text={slug} limit={120} />
        </code>
        {review && <OutcomeChip value={review.outcome} foundAt={review.outcomePath} />}
        {unparsed && (
          <>
            <OutcomeChip value={unparsed.outcome} foundAt={unparsed.path} stated={unparsed.stated} />
            <span className="text-xs text-slate-600">
              {empty ? SENT_EMPTY : !parsed.ok && parsed.text !== raw ? 'JSON text holding text, not read' : 'not valid JSON'}
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
          <RawJson raw={raw} parsed={parsed} title={title} view={view} onToggle={onRawJson} recordCopy={recordCopy} />
        </>
      ) : empty ? (
        <p className="text-sm text-slate-500 italic" data-testid="certificate-sent-empty">
          The KYC service sent this certificate empty: it holds no document, so no result is read from it.
        </p>
      ) : (
        <div className="space-y-2">
          <Notice tone="warning">{!parsed.ok && parsed.problem} The raw text is shown as received.</Notice>
          <CertificateText
            text={raw}
            title={title}
            recordCopy={recordCopy}
            boxClassName={printedBoxClass}
            laidOut={raw.length <= RECEIVED_LAID_OUT}
          />
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
