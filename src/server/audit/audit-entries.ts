import type { Role } from '../../kyc/contract/api.ts';
import type { AuditFilter } from '../../kyc/contract/audit-search.ts';
import type { BatchHandoff } from '../../kyc/contract/batch-handoff.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { AuditHeld } from '../../kyc/contract/audit-held.ts';
import type { FileTypeLabel } from '../../kyc/contract/picture-type.ts';
import type { RefusedWebhookAuditEntry, WebhookAuditEntry } from './webhook-lines.ts';

/** Every kind of line the audit log holds: what each says, never a key, never candidate data. */

/** What every line of a user's request says first: when, which request, who, in which role, from where. */
export interface RequestAuditFields {
  time: string;
  /** The request's id, also in its log line and its X-Request-Id header. */
  requestId?: string;
  user: string;
  role: Role;
  /** The address the request came from, as far as this server may believe it (http/client.ts: TRUSTED_PROXIES). */
  client?: string;
  /**
   * `user` and `role` are those this instance last knew for the session (a few minutes at most), the shared
   * store (Redis) not answering: only a print's line, or a refused hand-off's (export-route.ts).
   */
  identityFromCache?: true;
}

/** One line per lookup: who looked up which id, and what came of it. Never a key, never candidate data. */
export interface AuditEntry extends RequestAuditFields {
  /** The environment (its name) the lookup went to; as asked, cut to 32 characters, when there is none of that name. */
  env: string;
  kind: LookupKind;
  /** The id as asked for, cut to 256 characters (audit-line.ts). */
  id: string;
  /** What the browser was answered. */
  status: number;
  code: string | null;
  /** The KYC service's HTTP status; null when it was not asked or did not answer. */
  upstreamStatus: number | null;
  /** Which detail was fetched: the full key, the status key, or the full key with identity data removed. */
  level: 'full' | 'status' | 'stripped' | null;
  /** A support user's lookup in an environment with support fields: the names of those the answer held (never their values). */
  fields?: string[];
  /** Support fields configured but not fetched: the full key archives after extract, so a full read would delete data. */
  fieldsWithheld?: 'archiving_key';
  durationMs: number;
  /** One id of a batch lookup (`POST /api/batch`). */
  batch?: true;
  /**
   * A candidate page's own re-check of the status (`/api/status/…`: after a live update, or when its tab
   * comes back after a while), not a lookup the user asked for: status level, on the page they opened.
   */
  statusCheck?: true;
  /** A batch refused whole (its budget used up): how many ids it held; `id` is then empty. */
  batchSize?: number;
  /** A status-level lookup of the queue index (queue-crawler.ts): list work, asked by this server, not a user. */
  queueIndex?: true;
  /**
   * A second line of the same request: its full answer had begun (its first line, written before the first
   * byte, says 200) and was cut short, for this reason; `status` and `code` are what the client would have
   * been answered had the fault come before the status line (the client left: 499 `cancelled`).
   */
  cut?: AnswerCut;
  /**
   * A cut line's: the bytes of the answer's body written to the connection before it was cut, so what at
   * most may have reached the client (a record cut for another candidate's id had sent that much of it).
   */
  sentBytes?: number;
  /**
   * The answer's record was another candidate's (`other_candidate`: a cache or gateway in front of the
   * service answering wrongly): the id of the kind asked that it gave, cut as `id` is. Nothing of it was sent,
   * unless the line is a cut one (`cut`): then `sentBytes` of the answer had gone before the id was read.
   */
  answeredId?: string;
  /**
   * A full answer's 200 line: its request closes with a line that says what the answer held (`held`), or
   * with a cut line. A full lookup's line without it is of before this was recorded.
   */
  heldLine?: true;
  /**
   * The closing line of a full answer read whole and passed on whole (written before its end reaches the
   * client): what the record held, counts and the names of its picture attributes, never a value
   * (answer/answer-held.ts). Its status is the 200 of the request's first line.
   */
  held?: AuditHeld;
}

/**
 * Why a full answer was cut short after its status line had left: the service stated an error after its
 * record began (`{"data":{…},"status":"error"}`), the service's answer could not be sent whole (it broke
 * off, stalled, grew too large, stopped being JSON, gave a member twice, held the key, could not be framed
 * in parts), or the client went away or stopped reading.
 */
export type AnswerCut = 'service_error' | 'answer_fault' | 'client_left';

/**
 * A candidate's data carried out of the page: a summary, a reply or a certificate copied, the page printed,
 * or a document file saved (a picture attribute the page does not show: a PDF, an SVG, a scan too large).
 */
export interface ExportAuditEntry extends RequestAuditFields {
  env: string;
  kind: 'export';
  what: 'summary' | 'reply' | 'print' | 'certificate' | 'file';
  /** A reply's template (the status it is for, another of its templates such as `blocked:neutral`, or `*`), never its text. */
  template?: string;
  /** A print made with the privacy mask on: the paper held no masked value. */
  masked?: true;
  /**
   * A print of a candidate this user was not answered a lookup of lately (opened-candidates.ts): a copy is
   * refused then, but a print cannot be stopped, so its line still names whose data was printed.
   */
  notLookedUp?: true;
  /**
   * A print whose user's lookup could not be checked: the shared store (Redis) did not answer. A copy is
   * refused then (503), but the paper exists, so its line is written all the same, marked so.
   */
  openedUnknown?: true;
  /** The certificate copied: its slug (CERTIFICATE_SLUG), never its text. */
  slug?: string;
  /** The document file saved: the attribute it is (ATTRIBUTE_NAME, `proof_of_address`), never its bytes. */
  attribute?: string;
  /** The document file saved: its type as sniffed from its bytes (FILE_TYPE_LABELS: `PDF`, `SVG`, `unknown`). */
  fileType?: FileTypeLabel;
  /** How the candidate shown was looked up. */
  lookupKind: LookupKind;
  id: string;
}

/**
 * A batch's results carried out of the page (its CSV downloaded, its table copied), written before they
 * leave: whom the file held, as a queue view's line names whom it showed (`candidates`, each by the kind
 * that found it: its batch's, `lookupKind`, or the other it was tried as; at most 100, cut as a lookup's
 * id), and `count`, the candidates it held in all.
 */
export interface BatchExportAuditEntry extends RequestAuditFields {
  env: string;
  kind: 'export';
  what: BatchHandoff;
  lookupKind: LookupKind;
  candidates: ShownCandidate[];
  count: number;
}

/**
 * A batch or an export refused before its body was read (over the rate limit): what it held is not known,
 * so the line names the route it came to. An export refused once its body was read (its id, a candidate
 * not looked up lately, the shared store down) also says what was to be handed off, never whose.
 */
export interface RefusedRequestAuditEntry extends RequestAuditFields {
  env: string;
  kind: 'batch' | 'export';
  /** An export's: a summary, reply or certificate (or a print, or a document file saved) refused. */
  what?: ExportAuditEntry['what'] | BatchHandoff;
  status: number;
  code: string | null;
  durationMs: number;
}

/**
 * One line per page of the applicants list: who listed which page, and whom it showed, every row by its
 * ids (never its values), so that a lead can answer "who saw whom" of any view: one of status-level fields
 * only (a status, its dates and ids) as much as one of a compliance user's rows with a name or a
 * certificate's outcome, which `personalData` tells apart.
 */
export interface ListAuditEntry extends Omit<AuditEntry, 'kind' | 'id' | 'batch' | 'batchSize'> {
  kind: 'list';
  /** The documented filter, or "all"; null when the request was refused before it could be read. */
  filter: string | null;
  skip: number | null;
  limit: number | null;
  /** The view asked for every tab's count too (`counts=1`): those were read within this request. */
  counts?: true;
  /** The view was filtered to the rows over the SLA (`overSla=1`); absent when not (and in lines written before it was recorded). */
  overSla?: true;
  /** The view was filtered to the rows whose certificate needs attention (`attention=1`); absent when not. */
  attention?: true;
  /** How many records the page held; null when none was answered. */
  records: number | null;
  /** The candidates the view showed, by the ids their rows carry (each cut to 256 characters); absent when it showed none. */
  candidates?: ShownCandidate[];
  /**
   * Beside `candidates`: whether any row carried personal data (a name, a certificate's outcome). A line
   * written before every view named its candidates has them only when one did, and no `personalData`.
   */
  personalData?: boolean;
}

/** One candidate of a queue view's line: the ids its row carried (at least one). */
export interface ShownCandidate {
  refId?: string;
  recordId?: string;
}

/**
 * Many refusals of one user, counted instead of written one by one (audit-refusals.ts): the first of
 * an interval has its own line, the rest of that interval are this one line, whichever environments
 * they asked for (each refused line before them names its own). A batch's invalid ids are counted the
 * same way: one line for the batch (`batch`, with its request and environment), never their text.
 */
export interface RefusalsAuditEntry {
  time: string;
  /** The batch's request, when the line counts one batch's invalid ids. */
  requestId?: string;
  user: string;
  /** None for refused webhook deliveries: the service sent them. */
  role?: Role;
  /** The batch's environment, when the line counts one batch's invalid ids. */
  env?: string;
  kind: 'refusals';
  batch?: true;
  /** How many refusals this line stands for, and how many of each code. */
  count: number;
  codes: Record<string, number>;
  /** The first and last of them. */
  from: string;
  to: string;
}

/** Written by the log itself: lines that reached the file after their lookups had been refused. */
export interface NoteAuditEntry {
  time: string;
  kind: 'note';
  note: string;
}

/**
 * The audit trail read (issue 34): a search of the audit page (each page of it) or its CSV export, by a
 * lead. The filter as asked (an id cut as a lookup's), and for a search how many rows it answered.
 */
export interface AuditReadEntry extends RequestAuditFields {
  kind: 'audit';
  what: 'search' | 'export';
  filter: AuditFilter;
  /** A later page of the same search (its cursor given). */
  page?: true;
  /** How many rows the search answered (an export's are counted by nobody: it streams). */
  rows?: number;
}

/** Every kind of line the audit log holds. */
export type AuditLine =
  | AuditEntry
  | ExportAuditEntry
  | BatchExportAuditEntry
  | RefusedRequestAuditEntry
  | ListAuditEntry
  | RefusalsAuditEntry
  | NoteAuditEntry
  | WebhookAuditEntry
  | RefusedWebhookAuditEntry
  | AuditReadEntry;
