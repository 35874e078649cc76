import { type AuditAction, type AuditRow, QUEUE_ONLY, QUEUE_ONLY_WORDS } from '../../kyc/contract/audit-search.ts';
import { elapsedText } from '../log/elapsed.ts';
import { answeredWords, cutAnsweredWords } from './answered-record.ts';
import { filterText } from './audit-filter-text.ts';
import { ownEntry } from '../../kyc/contract/own-entry.ts';

/**
 * The detail of an audit row (audit-row.ts): the rest of its line in a few words, the same for the audit
 * page, the table and the CSV. `text` is the row's reading of a field (cut, NUL replaced).
 */

type Line = Record<string, unknown>;
type Text = (value: unknown, max?: number) => string | null;

/** What a refused hand-off was to be (its line, id-less by design, still says `what`). */
const REFUSED_WORDS: Record<string, string> = {
  summary: 'a copy of the summary; the line names no candidate',
  reply: 'a copy of a reply; the line names no candidate',
  certificate: 'a copy of a certificate; the line names no candidate',
  file: 'a document file to save; the line names no candidate',
  print: 'a print; the line names no candidate',
  batch_csv: "a batch's CSV to download; the line names no candidate",
  batch_copy: "a batch's table to copy; the line names no candidate",
};

/** "1 record", "2 records": a queue view's count of the rows it answered. */
const recordsText = (records: unknown): string => `${String(records ?? 0)} ${records === 1 ? 'record' : 'records'}`;

/** A batch's hand-off: how many candidates it held, "12 candidates", and how many its line names when not all. */
function batchWords(line: Line): string {
  const count = typeof line.count === 'number' ? line.count : 0;
  const named = Array.isArray(line.candidates) ? line.candidates.length : 0;
  const held = `${count} ${count === 1 ? 'candidate' : 'candidates'}`;
  return named < count ? `${held}, the first ${named} named in the line` : held;
}

/**
 * A queue view that names its candidates: whether its rows carried personal data. A line of before every
 * view named its candidates (no `personalData`) named them only when they did.
 */
const shownWords = (line: Line): string =>
  line.personalData === false ? 'their ids in the line (status-level fields only)' : 'their ids in the line (personal data shown)';

/** The rest of the line in a few words, for the page and the CSV. */
export function detailOf(line: Line, action: AuditAction, text: Text): string | null {
  const parts: string[] = [];
  const add = (part: string | false | null | undefined) => part && parts.push(part);
  switch (action) {
    case 'list':
      add(`filter ${String(line.filter ?? 'unread')}${onlyOf(line)}, skip ${String(line.skip ?? '-')}, ${recordsText(line.records)}`);
      add(Array.isArray(line.candidates) && line.candidates.length > 0 && shownWords(line));
      break;
    case 'copy_reply':
      add(typeof line.template === 'string' && `template ${line.template}`);
      break;
    case 'copy_certificate':
      add(typeof line.slug === 'string' && `certificate ${text(line.slug, 64)}`);
      break;
    case 'save_file':
      add(fileWords(line, text));
      break;
    case 'save_batch':
    case 'copy_batch':
      add(batchWords(line));
      break;
    case 'print':
      // The paper held no masked value (export-route.ts writes `masked: true` for such a print only).
      add(line.masked === true && 'made with the privacy mask on');
      add(line.notLookedUp === true && 'not looked up lately by this user');
      add(line.openedUnknown === true && 'whether this user looked it up lately could not be checked (the shared store did not answer)');
      break;
    case 'export':
      // Refused: its line names no candidate by design, but says which hand-off it was.
      add(typeof line.what === 'string' && REFUSED_WORDS[line.what]);
      break;
    case 'refusals':
      // Over how long, not two raw timestamps: the row's own time (in the reader's zone) says when.
      add(`${String(line.count)} refused (${countsOf(line.codes)})${spanOf(line.from, line.to)}`);
      break;
    case 'webhook':
      add(line.kind === 'webhook' && `${String(line.event)}: ${String(line.status)}${recordIdBeside(line)}`);
      break;
    case 'audit_search':
    case 'audit_export':
      add(filterText(line.filter));
      add(typeof line.rows === 'number' && `${line.rows} ${line.rows === 1 ? 'row' : 'rows'}`);
      break;
    case 'note':
      add(typeof line.note === 'string' ? line.note : `a line of kind "${String(line.kind).slice(0, 40)}"`);
      break;
    case 'cut':
      // Cut as another candidate's: what of theirs was sent says it all (the reason's words would call it a refusal).
      add(cutAnsweredWords(line, text) ?? ownEntry(CUT_WORDS, String(line.cut)) ?? 'the answer was cut short after it began');
      break;
    default:
      add(typeof line.batchSize === 'number' && `a batch of ${line.batchSize} ids refused whole`);
      add(
        Array.isArray(line.fields) &&
          (line.fields.length > 0 ? `support fields ${line.fields.join(', ')}` : 'no support field in the answer'),
      );
      add(line.fieldsWithheld === 'archiving_key' && 'support fields withheld: the key archives after extract');
      // Its record was someone else's: refused, and the line names whose, so a lead can follow it up.
      add(answeredWords(line, text));
      // A success says nothing the outcome does not; another answer of the service is worth a word.
      add(
        typeof line.upstreamStatus === 'number' &&
          (line.upstreamStatus < 200 || line.upstreamStatus > 299) &&
          `the service answered ${line.upstreamStatus}`,
      );
  }
  // Any line whose user was not read from the session store (export-route.ts): a lead must know whose word it is.
  add(line.identityFromCache === true && 'its user is the one this server last knew for the session (the session store did not answer)');
  return parts.length > 0 ? parts.join('; ') : null;
}

/**
 * Why a lookup's answer was cut short, in words a compliance lead reads beside its earlier "OK" line: the
 * status line had left, so the client got an answer that never arrived whole.
 */
const CUT_WORDS: Record<string, string> = {
  service_error:
    'the answer began (OK), then the KYC service reported an error after part of the record: the answer was cut short, so it never arrived whole',
  answer_fault:
    "the answer began (OK), then the KYC service's answer broke off, stalled, grew too large or turned out unusable: the answer was cut short, so it never arrived whole",
  client_left: 'the answer began (OK), then the client went away or stopped reading before it ended: it never arrived whole',
};

/**
 * A saved document file in a lead's words: "proof of address, PDF" (the attribute's name with its `_`, `-`
 * and `.` read as spaces), "unknown type" for bytes of no type the page names; either may be left out.
 */
function fileWords(line: Line, text: Text): string | null {
  const attribute =
    typeof line.attribute === 'string'
      ? text(line.attribute, 64)
          ?.replace(/[_.-]+/g, ' ')
          .trim()
      : undefined;
  const type = typeof line.fileType === 'string' ? (line.fileType === 'unknown' ? 'unknown type' : text(line.fileType, 16)) : undefined;
  const words = [attribute, type].filter(Boolean).join(', ');
  return words || null;
}

/** A queue view's filters, as the page's checkboxes name them: " (over SLA only, certificate needs attention)"; "" for none (and older lines). */
function onlyOf(line: Line): string {
  const only = queueOnlyOf(line).map((name) => QUEUE_ONLY_WORDS[name]);
  return only.length > 0 ? ` (${only.join(', ')})` : '';
}

/** The filters a queue view's line records beyond its tab (`overSla: true`, `attention: true`), in the queue's order. */
export const queueOnlyOf = (line: Line): AuditRow['queueOnly'] & {} => QUEUE_ONLY.filter((name) => line[name] === true);

/** ", all within a second", ", over 45 s", ", over 3 min", ", over 2 h": from the window's first refusal to its last. */
function spanOf(from: unknown, to: unknown): string {
  const ms = typeof from === 'string' && typeof to === 'string' ? Date.parse(to) - Date.parse(from) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 500 ? ', all within a second' : `, over ${elapsedText(ms)}`;
}

function countsOf(codes: unknown): string {
  if (typeof codes !== 'object' || codes === null) return '';
  return Object.entries(codes)
    .map(([code, count]) => `${code} ${String(count)}`)
    .join(', ');
}

function recordIdBeside(line: Line): string {
  return typeof line.refId === 'string' && typeof line.recordId === 'string' ? `, recordId ${line.recordId}` : '';
}
