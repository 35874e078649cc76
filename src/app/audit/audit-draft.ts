import {
  AUDIT_TEXT_MAX,
  type AuditAction,
  type AuditFilter,
  type AuditFilterAction,
  type AuditLevel,
  type AuditWho,
  isServerWork,
} from '../../kyc/contract/audit-search.ts';
import { looksLikeRecordId } from '../../kyc/contract/lookup.ts';
import { cleanId, unwrapId } from '../../kyc/view/id-input.ts';
import type { ZoneMode } from '../../kyc/view/time.ts';
import { parseAppLink } from '../routes.ts';

/** The audit page's form as typed, and the filter it asks the server for (audit-filters.tsx draws it). */

/** The form's fields as typed: text, and the times as a `datetime-local` input holds them. */
export interface FilterDraft {
  /** People (the default), this server's own work, or everyone (''). */
  who: '' | AuditWho;
  user: string;
  refId: string;
  recordId: string;
  action: '' | AuditFilterAction;
  level: '' | AuditLevel;
  env: string;
  from: string;
  to: string;
  /** The zone `from` and `to` were typed in (the header's switch then): turned, they are written anew in the other (rezoned). */
  zone?: ZoneMode;
}

export const EMPTY_DRAFT: FilterDraft = {
  who: 'people',
  user: '',
  refId: '',
  recordId: '',
  action: '',
  level: '',
  env: '',
  from: '',
  to: '',
};

/** What the empty form asks for: people's lines, every other filter open. The page's first search. */
export const DEFAULT_FILTER: AuditFilter = { who: 'people' };

/**
 * A `datetime-local` value as an instant: in the reader's time zone, or in UTC while the page shows UTC
 * times (the header's switch), so that what is typed means what the table shows.
 */
export function instantOf(local: string, zone: ZoneMode): string | undefined {
  if (!local) return undefined;
  const date = new Date(zone === 'utc' ? `${local}Z` : local);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** An instant as a `datetime-local` input holds it (to the second), in the reader's zone or in UTC. */
function localOf(iso: string, zone: ZoneMode): string {
  const date = new Date(iso);
  const local = new Date(zone === 'utc' ? date.getTime() : date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

/**
 * The draft with its times written in `zone`, the same instants: the header's UTC switch turns every time
 * on the page, and the form's From and Before with them (left as typed, they meant hours later or earlier).
 */
export function rezoned(draft: FilterDraft, zone: ZoneMode): FilterDraft {
  const typed = draft.zone ?? zone;
  if (typed === zone) return draft.zone === zone ? draft : { ...draft, zone };
  const move = (local: string) => {
    const instant = instantOf(local, typed);
    return instant ? localOf(instant, zone) : local;
  };
  return { ...draft, from: move(draft.from), to: move(draft.to), zone };
}

const FIELD_NAMES = { user: 'User', refId: 'Candidate refId', recordId: 'Candidate recordId' } as const;

/** The filter the draft asks for (empty fields left out), or what is wrong with it. */
export function filterOf(draft: FilterDraft, zone: ZoneMode): { filter: AuditFilter } | { problem: string } {
  const text = (value: string) => value.trim() || undefined;
  const tooLong = (Object.keys(FIELD_NAMES) as Array<keyof typeof FIELD_NAMES>).find(
    (field) => draft[field].trim().length > AUDIT_TEXT_MAX,
  );
  if (tooLong) {
    const limit = AUDIT_TEXT_MAX.toLocaleString('en');
    return {
      problem: `"${FIELD_NAMES[tooLong]}" is longer than ${limit} characters, which no name or id is. Not searched: the table below is still the last search.`,
    };
  }
  const from = instantOf(draft.from, zone);
  const to = instantOf(draft.to, zone);
  if (from && to && from >= to) {
    // Named as the form names them; and nothing was asked, so what the table shows is the last search's.
    return { problem: '"From" must be earlier than "Before". Not searched: the table below is still the last search.' };
  }
  const filter: AuditFilter = {
    who: whoOf(draft),
    user: text(draft.user),
    ...candidateOf(draft),
    action: draft.action || undefined,
    level: draft.level || undefined,
    env: draft.env || undefined,
    from,
    to,
  };
  return { filter: Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as AuditFilter };
}

/**
 * The candidate's ids the draft asks for, read as the search box reads an id (a lead pastes the same
 * things an agent does): a link of a candidate page gives its kind and id; a recordId (24 hexadecimal
 * characters) in the refId field is searched as both, since a lookup by it is written under its kind;
 * a recordId is read in lower case, as the service writes it. Before, each of these found no line.
 */
function candidateOf(draft: FilterDraft): Pick<AuditFilter, 'refId' | 'recordId'> {
  const ids: { refId?: string | undefined; recordId?: string | undefined } = {};
  for (const field of ['refId', 'recordId'] as const) {
    // Invisible characters dropped; then a link, or the id without the quotes around it.
    const typed = cleanId(draft[field]).id;
    const link = parseAppLink(typed);
    if (link) ids[link.kind] ??= link.id;
    else ids[field] ??= unwrapId(typed).id || undefined;
  }
  const record = ids.recordId && looksLikeRecordId(ids.recordId.toLowerCase()) ? ids.recordId.toLowerCase() : ids.recordId;
  const refIdIsRecord = ids.refId !== undefined && record === undefined && looksLikeRecordId(ids.refId.toLowerCase());
  return {
    ...(ids.refId === undefined ? {} : { refId: ids.refId }),
    ...(refIdIsRecord ? { recordId: ids.refId!.toLowerCase() } : record === undefined ? {} : { recordId: record }),
  };
}

/** The actions only this server's own work has: the queue index's lookups, the service's webhooks. */
const SERVER_ACTIONS: readonly string[] = ['queue_index', 'webhook'] satisfies AuditAction[];

/**
 * Whose lines: as chosen, except that "People" gives way when another field asks for this server's own
 * work by name (its user, a queue index lookup, a webhook), which would otherwise find nothing.
 */
function whoOf(draft: FilterDraft): AuditWho | undefined {
  if (draft.who !== 'people') return draft.who || undefined;
  const user = draft.user.trim();
  const asksForServer = (user !== '' && isServerWork(user)) || SERVER_ACTIONS.includes(draft.action);
  return asksForServer ? undefined : 'people';
}

/**
 * Whether two filters ask for the same lines: the same fields set, to the same values (a field set to
 * nothing is not set). Download CSV searches the typed filters first only when they are not the ones the
 * table shows: each search takes one of the lead's searches a minute, and the file's own export another.
 */
export function sameFilter(a: AuditFilter, b: AuditFilter): boolean {
  const set = (filter: AuditFilter) =>
    JSON.stringify(
      Object.entries(filter)
        .filter(([, value]) => value !== undefined && value !== '')
        .sort(([x], [y]) => (x < y ? -1 : 1)),
    );
  return set(a) === set(b);
}
