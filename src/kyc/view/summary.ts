import type { Role } from '../contract/api.ts';
import { readsFullRecord } from '../contract/roles.ts';
import { revealInvisibles } from '../contract/invisible.ts';
import { UNCONFIRMED_NOTE } from '../contract/certificate-triage.ts';
import { type CandidateRecord, unreadFieldsOf } from '../contract/schema.ts';
import { serviceIdsOf } from '../contract/service-id.ts';
import { statusInfo } from '../contract/status.ts';
import { type CertificateOutcome, certificateOutcome } from './certificate-review.ts';
import type { CustomFieldValue } from './summary-fields.ts';
import { fieldText, notTextWords, type StructuredField } from '../contract/other-forms.ts';
import { labelOf } from '../contract/certificate-fields.ts';
import { recordIdText, type ShownRecordId } from './shown-record-id.ts';
import { formatDateTime, formatRelative, type ZoneMode } from './time.ts';
import { asSentWords, buildTimeline, currentSince, LATER_DATE_WORDS, unreadDateWords } from './timeline.ts';

export interface SummaryInput {
  record: CandidateRecord;
  /** The environment as the header badge names it, e.g. "Production · acme_kyc". */
  environment: string;
  role: Role | undefined;
  /** The recordId the page shows (shown-record-id.ts): the record's own, or one filled in with where it came from. */
  recordId?: ShownRecordId;
  /** Custom fields that matter for the decision, as the decision summary shows them (compliance users only). */
  decisionFields?: ReadonlyArray<readonly [string, CustomFieldValue]>;
  /** Those of them that came as an object or a list (structuredSummaryFields): written as their JSON, marked "not text". */
  decisionStructured?: readonly StructuredField[];
  /** The environment's support fields: for a support user, those recorded are written as the page's card shows them. */
  supportFields?: readonly string[];
  now: Date;
  /** The page's choice of clock (the header's "UTC times"): the summary says what the page says. */
  zone?: ZoneMode;
  timeZone?: string;
  locale?: string;
}

/**
 * A plain-text summary to paste into a ticket or a case file: ids, status and since when, submissions,
 * the environment; for compliance users also certificate outcomes and decision fields. Never pictures,
 * and never address, phone, date of birth or e-mail: they are not read from the record at all.
 */
export function candidateSummary(input: SummaryInput): string {
  const { record, now } = input;
  const zoned = (date: Date) => formatDateTime(date, { zone: input.zone, timeZone: input.timeZone, locale: input.locale });
  const info = statusInfo(record.status);
  const timeline = buildTimeline(record, now);
  const unreadDates = timeline.unreadDates;
  const since = currentSince(timeline);
  const doubtful = since?.laterExists ? ` (${LATER_DATE_WORDS})` : '';
  // As the page says it: a field the answer lacks is "not in this response", never "none" (the service leaves fields out).
  const unread = unreadFieldsOf(record);
  const absent = (field: string) =>
    unread.some((entry) => entry.field === field) ? 'in the response, but not readable' : 'not in this response';
  const lines = [
    `Candidate (${input.environment})`,
    sent(`refId: ${record.refId ?? absent('refId')}`),
    sent(`recordId: ${input.recordId ? recordIdText(input.recordId) : (record.recordId ?? absent('recordId'))}`),
    ...serviceIdsOf(record, unread).map(({ field, value }) => sent(`${field}: ${value ?? absent(field)}`)),
    `Status: ${info.label}${
      since?.at
        ? ` since ${zoned(since.at)} (${formatRelative(since.at, now, input)})${doubtful}`
        : since?.unread
          ? ` since ${sent(since.unread.sent)} (as sent: ${asSentWords(since.unread)})`
          : ''
    }`,
  ];
  // A status date that could not be read is said as sent, never left out as if the service had sent none.
  if (unreadDates.length > 0) {
    lines.push(
      unreadDates.some((date) => date.doubt === undefined) ? 'Status dates not readable:' : 'Status dates that cannot be right:',
      ...unreadDates.map((date) => `  ${sent(`${date.field} (${date.status.label}): ${unreadDateWords(date)}`)}`),
    );
  }
  if (record.isArchived) lines.push('Archived: identity data was archived on the service');
  else if (record.isArchived === undefined) lines.push(`Archived: ${absent('isArchived')}`);
  if (record.submitCount !== undefined) lines.push(`Submissions: ${record.submitCount}`);
  if (input.role === 'support') lines.push(...supportLines(record, input.supportFields ?? []));
  if (readsFullRecord(input.role)) {
    if (record.certs) {
      const { certs } = record;
      const outcomes = Object.entries(certs).map(([slug, raw]) => `  ${sent(certificateLine(outcomeOf(certs, slug, raw)))}`);
      if (outcomes.length > 0) lines.push('Certificates:', ...outcomes);
    }
    const plain = (input.decisionFields ?? []).map(([name, value]) => `  ${sent(`${name}: ${value === null ? '(empty)' : value}`)}`);
    const structured = (input.decisionStructured ?? []).map(
      (field) => `  ${sent(`${field.name}: ${field.json} (${notTextWords(field)})`)}`,
    );
    if (plain.length + structured.length > 0) lines.push('Decision fields:', ...plain, ...structured);
  }
  lines.push(`Looked up: ${zoned(now)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * What the service recorded that a support user may see (a rejection reason, a hint for resubmitting), as
 * the page's card lists it (support-fields-card.tsx): each field recorded by its label, in the order of
 * the environment's support fields; one sent as an object or a list said to be recorded, not read (a
 * support agent must not tell the customer nothing was). Nothing for a record without custom fields (not
 * fetched: the card says why) or none recorded. Before, the copy held ids and status only, while the page
 * and Print showed the reason (UX review).
 */
function supportLines(record: CandidateRecord, fields: readonly string[]): string[] {
  const recorded = record.customFields;
  if (!recorded) return [];
  const lines = fields.flatMap((field) => {
    const value = Object.hasOwn(recorded, field) ? recorded[field] : undefined;
    if (value === undefined || value === null || value === '') return [];
    const text =
      typeof value === 'boolean'
        ? value
          ? 'Yes'
          : 'No'
        : typeof value === 'string' || typeof value === 'number'
          ? fieldText(recorded, field, value)
          : 'recorded, but could not be read here';
    return [`  ${sent(`${labelOf(field)}: ${text}`)}`];
  });
  return lines.length > 0 ? ['What the service recorded:', ...lines] : [];
}

/**
 * A line holding what the record sent (an id, a field's name or value, a certificate's words): each line
 * break, control or direction override in it shown as its mark (`⟦U+000A⟧`), so that what the record holds
 * can add no line to the case file: a blockPassID or a risk level holding "\nStatus: Approved since …" wrote
 * a forged status line above the real one into what is pasted into a ticket.
 */
const sent = revealInvisibles;

/**
 * Each record's certificates as Copy summary read them, by the record's own `certs`: a second press on the
 * same record reads none again (a large certificate costs its parse). Weakly held, never by the text:
 * what is kept goes with the record, which no query keeps once no page shows it (gcTime 0).
 */
const outcomesRead = new WeakMap<Readonly<Record<string, string>>, Map<string, ChipRead>>();
type ChipRead = { raw: string; chip: CertificateOutcome };

function outcomeOf(certs: Readonly<Record<string, string>>, slug: string, raw: string): CertificateOutcome {
  const read = outcomesRead.get(certs) ?? new Map<string, ChipRead>();
  outcomesRead.set(certs, read);
  const kept = read.get(slug);
  // The same text as read before (the record's strings are never changed in place, but a check costs nothing).
  if (kept?.raw === raw) return kept.chip;
  const chip = certificateOutcome(slug, raw);
  read.set(slug, { raw, chip });
  return chip;
}

/** "ComplyAdvantage: potential_match (at _customFields.result)": the chip's words, and where to check them. */
function certificateLine(chip: CertificateOutcome): string {
  const where = chip.path ? ` (at ${chip.path}${chip.recognition === 'unreadable' ? ' in a certificate that is not valid JSON' : ''})` : '';
  if (chip.recognition === 'unreadable' && !chip.path) return `${chip.label}: not readable`;
  if (chip.stated !== undefined) return `${chip.label}: ${chip.stated} ${UNCONFIRMED_NOTE} (at ${chip.path})`;
  return `${chip.label}: ${chip.outcome}${where}`;
}
