import { decodeEnvironmentName, SIGN_IN_REFUSALS, SIGN_IN_REFUSED_PATH, type SignInRefusal } from '../kyc/contract/api-paths.ts';
import { decodeIdSegment, isLookupKind, type LookupKind } from '../kyc/contract/lookup.ts';
import { bareLink } from '../kyc/view/bare-link.ts';

/** The pages' paths (app.tsx's route table); `/candidates/<kind>/<id>` is built by candidatePath. */
export const HOME_PATH = '/';
export const QUEUE_PATH = '/applicants';
export const BATCH_PATH = '/batch';
/** The audit page (issue 34): leads only, the same in every environment. */
export const AUDIT_PATH = '/audit';
export const CANDIDATES_PREFIX = '/candidates/';

/** What the search box hands the batch page, in the history entry, when a list was pasted into it. */
/** What a candidate's Activity hands the audit page, in the history entry: its whole trail is searched (never in the URL). */
export interface AuditHandOver {
  audit: { refId?: string; recordId?: string; env?: string };
}

export interface BatchHandOver {
  /**
   * `text`: the list as the batch's box shows it, each id on the line it was pasted on (else the ids, one
   * a line). `start`: look them up at once (the offer's "Look up all").
   */
  batch: { kind: LookupKind; ids: string[]; text?: string; start?: boolean };
}

/** What switching environment on a candidate page hands the other environment's home page: the id for its box. */
export interface LookupDraft {
  draft: { kind: LookupKind; id: string };
}

export function lookupDraftOf(state: unknown): LookupDraft['draft'] | undefined {
  const draft = (state as Partial<LookupDraft> | null)?.draft;
  return draft && typeof draft.id === 'string' && isLookupKind(String(draft.kind)) ? draft : undefined;
}

/** What the search box and the automatic retry tell the candidate page through the history entry. */
export interface LookupNote {
  /** What was removed from a pasted id, e.g. "1 zero-width space". */
  cleaned?: string;
  /** This recordId was tried because no candidate has it as refId. */
  triedAsRefId?: boolean;
  /** The search box read the kind from the id's form (no switch, no link): a recordId it guessed may be tried as a refId. */
  guessed?: boolean;
  /** This refId was tried because no candidate has it as the recordId the search box took it for. */
  triedAsRecordId?: boolean;
  /** "Try as …" was pressed: no candidate has this id as the other kind, which is not tried again by itself. */
  triedOtherKind?: boolean;
  /** What the search box dropped around a typed id: 'the leading "/" and the quotes around it'. */
  dropped?: string;
  /** Looked up as typed: the box's full reading of ids (readOneId) had not loaded, and this id's form is one it may read otherwise. */
  asTyped?: boolean;
  /** The id was read from a link of the service's dashboard: what the search box said about it. */
  dashboard?: string;
}

export function lookupNoteOf(state: unknown): LookupNote {
  const note = (state ?? {}) as LookupNote;
  return {
    cleaned: typeof note.cleaned === 'string' ? note.cleaned : undefined,
    triedAsRefId: note.triedAsRefId === true,
    guessed: note.guessed === true,
    triedAsRecordId: note.triedAsRecordId === true,
    triedOtherKind: note.triedOtherKind === true,
    dropped: typeof note.dropped === 'string' ? note.dropped : undefined,
    asTyped: note.asTyped === true,
    dashboard: typeof note.dashboard === 'string' ? note.dashboard : undefined,
  };
}

/**
 * What the queue hands a candidate page it opens, and each neighbour opened from there (Previous, Next):
 * the tab, its toggles, the page and the row's place on it. Never an id: the ids stay in memory (the
 * queue's query cache), the history entry (which the browser may write to disk) holds only where to find them.
 */
export interface QueueHandOver {
  /** `overSla`, `attention`: the queue's toggles (`?overSla=1&attention=1`); absent (an older entry) is the tab whole. */
  queue: { filter: string | null; page: number; index: number; overSla?: boolean; attention?: boolean };
}

/**
 * What a batch's found row hands the candidate page it opens, and each neighbour opened from there: the
 * row's place among the batch's lines. Never an id, as the queue's: the ids stay in the batch this tab
 * keeps in memory (batch/batch-memory.ts).
 */
export interface BatchRowHandOver {
  batchRow: { index: number };
}

/**
 * The keys of the reviewer's loop: the next and previous row (queue) or candidate (candidate page, opened
 * from the queue or a batch's found row), and back to that list.
 */
export const QUEUE_KEYS = { next: 'j', previous: 'k', back: 'u' } as const;

/** `/candidates/<kind>/<id>`: the id percent-encoded as one segment, so back, reload and shared links work. */
export function candidatePath(kind: LookupKind, id: string): string {
  return `${CANDIDATES_PREFIX}${kind}/${encodeURIComponent(id)}`;
}

export type CandidateRoute = { kind: LookupKind; id: string } | { kind: LookupKind | undefined; id: undefined; problem: string };

/** Reads the kind and id from the raw (still encoded) pathname. */
export function parseCandidatePath(pathname: string): CandidateRoute | undefined {
  const match = /^\/candidates\/([^/]+)\/(.*)$/.exec(pathname);
  if (!match) return undefined;
  const [, kind, encoded] = match as unknown as [string, string, string];
  if (!isLookupKind(kind))
    return { kind: undefined, id: undefined, problem: `"${kind}" is not a way to look candidates up: use refId or recordId.` };
  const decoded = decodeIdSegment(encoded);
  if (decoded.ok) return { kind, id: decoded.id };
  const problem =
    decoded.problem === 'not_one_segment'
      ? 'The id in this link is not one path segment.'
      : 'The id in this link is not correctly percent-encoded.';
  return { kind, id: undefined, problem };
}

/** `/e/<environment>/rest…`: the environment named in a path, and the page path without it. */
export function splitEnvironmentPath(pathname: string): { environment: string | undefined; path: string } {
  const match = /^\/e\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!match) return { environment: undefined, path: pathname };
  return { environment: decodeEnvironmentName(match[1]!), path: match[2] ?? '/' };
}

/** The path of a page in an environment; no environment means the unprefixed form (the first one). */
export function environmentPath(environment: string | undefined, path: string): string {
  return environment === undefined ? path : `/e/${encodeURIComponent(environment)}${path}`;
}

export interface AppLink {
  kind: LookupKind;
  id: string;
  environment: string | undefined;
}

/**
 * An id pasted as a link of this app (`https://host/candidates/refId/<id>`, or just the path): the kind,
 * id and environment it names. Any host: the app may be reached under several names.
 */
export function parseAppLink(text: string): AppLink | undefined {
  const trimmed = bareLink(text);
  let pathname: string;
  if (/^https?:\/\//i.test(trimmed)) {
    if (!URL.canParse(trimmed)) return undefined;
    pathname = new URL(trimmed).pathname;
  } else if (trimmed.startsWith('/candidates/') || trimmed.startsWith('/e/')) {
    pathname = trimmed.split(/[?#]/)[0]!;
  } else return undefined;
  const { environment, path } = splitEnvironmentPath(pathname);
  const route = parseCandidatePath(path);
  if (!route || route.id === undefined || route.id === '') return undefined;
  return { kind: route.kind, id: route.id, environment };
}

/** `/sign-in-refused/<reason>`, where the server sends the browser back when an OpenID Connect sign-in gave no session. */
export function signInRefusalOf(pathname: string): SignInRefusal | 'unknown' | undefined {
  if (!pathname.startsWith(SIGN_IN_REFUSED_PATH)) return undefined;
  const reason = pathname.slice(SIGN_IN_REFUSED_PATH.length);
  return (SIGN_IN_REFUSALS as readonly string[]).includes(reason) ? (reason as SignInRefusal) : 'unknown';
}
