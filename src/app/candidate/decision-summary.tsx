import { useMemo } from 'react';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { labelOf } from '../../kyc/contract/certificate-fields.ts';
import { certificateOutcome, certificatesWorstFirst } from '../../kyc/view/certificate-review.ts';
import { splitSummaryFields, structuredSummaryFields } from '../../kyc/view/summary-fields.ts';
import { notTextWords, type StructuredField } from '../../kyc/contract/other-forms.ts';
import { revealBidiControls, truncateText } from '../../kyc/view/text.ts';
import { asSentWords, buildTimeline, currentSince, type CurrentSince, LATER_DATE_WORDS } from '../../kyc/view/timeline.ts';
import { Card } from '../ui/card.tsx';
import { LongText } from '../ui/long-text.tsx';
import { OutcomeChip } from '../ui/outcome-chip.tsx';
import { type OutcomeTone, outcomeTone } from '../../kyc/contract/outcome.ts';
import { StatusBadge } from '../ui/status-badge.tsx';
import { CERTIFICATES_AT_ONCE } from './certificates.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/** When the record reached its current status, as the timeline has it. */
const sinceOf = (record: CandidateRecord, now: Date) => currentSince(buildTimeline(record, now));

/** "since 21 Nov 2026, 09:55 (8 days ago)", or a date that could not be read as sent: "since 2026-01-12 09:30:00 (as sent: not an ISO 8601 time)". */
function SinceWords({ since, now }: { since: CurrentSince; now: Date }) {
  if (since.at) {
    return (
      <>
        <TimeStamp date={since.at} now={now} />
        {since.laterExists && <span className="text-amber-900"> ({LATER_DATE_WORDS})</span>}
      </>
    );
  }
  return (
    <>
      <span className="font-mono text-xs">{since.unread.sent}</span>{' '}
      <span className="text-amber-900" data-doubtful-date={since.unread.doubt}>
        (as sent: {asSentWords(since.unread)})
      </span>
    </>
  );
}

/**
 * "since 21 Nov 2026, 09:55 (8 days ago)": a support user's decision summary, which holds nothing but the
 * status, said beside the header's status chip rather than in a card that shows the chip a second time
 * (on a phone, that card put Copy reply below the first screen).
 */
export function StatusSince({ record, now }: { record: CandidateRecord; now: Date }) {
  const since = sinceOf(record, now);
  if (!since) return null;
  return (
    <p className="text-sm text-slate-800" data-testid="summary-status">
      since <SinceWords since={since} now={now} />
    </p>
  );
}

/**
 * The decision at a glance, right under the header: the status and since when (how long ago in the
 * timeline's words), one chip per certificate, and the custom fields that explain the case (summaryFields in CONFIG_FILE),
 * those sent as an object or a list after the others, as Copy summary writes them.
 */
export function DecisionSummary({ record, now, summaryFields }: { record: CandidateRecord; now: Date; summaryFields?: readonly string[] }) {
  const since = sinceOf(record, now);
  const certs = Object.keys(record.certs ?? {});
  const { summary } = splitSummaryFields(record.customFields, summaryFields);
  const structured = structuredSummaryFields(record.customFields, summaryFields);
  return (
    <Card
      as="section"
      padding="none"
      aria-label="Decision summary"
      className="flex min-w-0 flex-wrap items-center gap-x-6 gap-y-3 px-5 py-3"
    >
      <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm text-slate-800" data-testid="summary-status">
        <StatusBadge status={record.status} />
        {/* The badge names the status; the sentence goes on from it ("Blocked since …"). */}
        {since && (
          <>
            {' '}
            <span>
              since <SinceWords since={since} now={now} />
            </span>
          </>
        )}
      </p>
      {certs.length > 0 && <CertificateChips certs={record.certs!} />}
      {summary.length + structured.length > 0 && (
        <dl aria-label="Decision fields" className="flex min-w-0 flex-wrap gap-x-5 gap-y-1 text-sm">
          {summary.map(([name, value]) => (
            <div key={name} className="flex min-w-0 gap-1.5" data-field={name}>
              <dt className="font-medium text-slate-600" title={name}>
                <LongText text={labelOf(name)} limit={60} />
              </dt>
              <dd className="min-w-0 font-semibold break-words text-slate-900">
                {value === null ? (
                  <span className="font-normal text-slate-500 italic">empty</span>
                ) : (
                  <LongText text={String(value)} limit={200} />
                )}
              </dd>
            </div>
          ))}
          {structured.map((field) => (
            <div key={`structured:${field.name}`} className="flex min-w-0 gap-1.5" data-field={field.name}>
              <dt className="font-medium text-slate-600" title={field.name}>
                <LongText text={labelOf(field.name)} limit={60} />
              </dt>
              <dd className="min-w-0 break-words text-slate-900">
                <StructuredPreview field={field} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/** Chips the strip shows at most: as many as the Certificates section shows at once. */
const CHIPS_AT_ONCE = CERTIFICATES_AT_ONCE;

/**
 * One chip per certificate, each read once per certificate text: the page renders again on every live
 * update and every 30 s tick of "8 minutes ago", and a certificate under the bound of 50,000 values is read
 * with the slower parse that keeps each number's text. Past CHIPS_AT_ONCE the worst come first (a failed
 * result is never the one left out) and the rest are counted by what they mean, "and 976 more: 970 passed,
 * 6 need attention": a record of 20,000 certificates drew a chip each, 8 s before the page could be used.
 */
function CertificateChips({ certs }: { certs: Readonly<Record<string, string>> }) {
  // Kept while the record is the same object: a new lookup of it (Refresh) reads them again.
  const { shown, rest } = useMemo(() => {
    const slugs = Object.keys(certs);
    if (slugs.length <= CHIPS_AT_ONCE)
      return { shown: slugs.map((slug) => ({ slug, ...certificateOutcome(slug, certs[slug]!) })), rest: [] };
    const ordered = certificatesWorstFirst(certs).map(({ slug, chip }) => ({ slug, ...chip }));
    return { shown: ordered.slice(0, CHIPS_AT_ONCE), rest: ordered.slice(CHIPS_AT_ONCE) };
  }, [certs]);
  return (
    <ul aria-label="Certificate results" className="flex min-w-0 flex-wrap items-center gap-2">
      {shown.map((chip) => (
        <li key={chip.slug} className="min-w-0" data-cert-chip={chip.slug} data-recognition={chip.recognition}>
          <OutcomeChip label={chip.label} value={chip.outcome} foundAt={chip.path} stated={chip.stated} />
        </li>
      ))}
      {rest.length > 0 && (
        <li className="text-sm text-slate-700" data-testid="more-chips">
          {moreChipsWords(rest)}
        </li>
      )}
    </ul>
  );
}

/** "and 976 more: 970 passed, 6 need attention, all under Certificates". */
function moreChipsWords(rest: ReadonlyArray<{ outcome: string }>): string {
  const tones = new Map<OutcomeTone, number>();
  for (const chip of rest) tones.set(outcomeTone(chip.outcome), (tones.get(outcomeTone(chip.outcome)) ?? 0) + 1);
  const order: OutcomeTone[] = ['negative', 'caution', 'neutral', 'positive'];
  const parts = order.flatMap((tone) => (tones.has(tone) ? [`${tones.get(tone)!.toLocaleString('en-US')} ${TONE_WORDS[tone]}`] : []));
  return `and ${rest.length.toLocaleString('en-US')} more: ${parts.join(', ')}, all under Certificates`;
}

const TONE_WORDS: Record<OutcomeTone, string> = {
  negative: 'failed',
  caution: 'need attention',
  neutral: 'of an unknown result',
  positive: 'passed',
};

/** The longest JSON the strip shows of a decision field sent as an object or a list: the Custom fields card has it whole. */
const PREVIEW_LIMIT = 60;

/** A decision field sent as an object or a list: the start of its JSON, marked "not text" as Copy summary marks it. */
function StructuredPreview({ field }: { field: StructuredField }) {
  const { shown, hidden } = truncateText(field.json, PREVIEW_LIMIT);
  return (
    <>
      <span className="font-mono text-xs">
        {revealBidiControls(shown)}
        {hidden > 0 && '…'}
      </span>{' '}
      <span className="text-xs text-amber-800" data-testid="not-text">
        ({notTextWords(field)}
        {hidden > 0 && '; in full under Custom fields'})
      </span>
    </>
  );
}
