import { type FormEvent, type ReactNode, useId, useState } from 'react';
import {
  AUDIT_ACTIONS,
  AUDIT_LEVELS,
  type AuditAction,
  type AuditFilter,
  type AuditLevel,
  type AuditWho,
  isServerWork,
} from '../../kyc/contract/audit-search.ts';
import { ACTION_LABELS, LEVEL_LABELS } from '../../kyc/view/audit-labels.ts';
import type { ZoneMode } from '../../kyc/view/time.ts';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { useZoneMode } from '../ui/zone-mode.ts';

/** The form's fields as typed: text, and the times as a `datetime-local` input holds them. */
export interface FilterDraft {
  /** People (the default), this server's own work, or everyone (''). */
  who: '' | AuditWho;
  user: string;
  refId: string;
  recordId: string;
  action: '' | AuditAction;
  level: '' | AuditLevel;
  env: string;
  from: string;
  to: string;
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

/** The filter the draft asks for (empty fields left out), or what is wrong with it. */
export function filterOf(draft: FilterDraft, zone: ZoneMode): { filter: AuditFilter } | { problem: string } {
  const text = (value: string) => value.trim() || undefined;
  const from = instantOf(draft.from, zone);
  const to = instantOf(draft.to, zone);
  if (from && to && from >= to) {
    // Named as the form names them; and nothing was asked, so what the table shows is the last search's.
    return { problem: '"From" must be earlier than "Before". Not searched: the table below is still the last search.' };
  }
  const filter: AuditFilter = {
    who: whoOf(draft),
    user: text(draft.user),
    refId: text(draft.refId),
    recordId: text(draft.recordId),
    action: draft.action || undefined,
    level: draft.level || undefined,
    env: draft.env || undefined,
    from,
    to,
  };
  return { filter: Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as AuditFilter };
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

/** Who the lines are by, as the select names it. */
const WHO_LABELS: Record<'' | AuditWho, string> = {
  people: 'People',
  server: "This server's own work",
  '': 'Everyone',
};

/** The audit page's filters: who, which candidate, what, at what level, where, when. */
export function AuditFilters({
  environments,
  onSearch,
  onExport,
  exporting,
}: {
  environments: readonly string[];
  onSearch: (filter: AuditFilter) => void;
  onExport: (filter: AuditFilter) => void;
  exporting: boolean;
}) {
  const [draft, setDraft] = useState<FilterDraft>(EMPTY_DRAFT);
  const [problem, setProblem] = useState<string>();
  const zone = useZoneMode();
  const id = useId();
  const set = (name: keyof FilterDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const read = (then: (filter: AuditFilter) => void) => {
    const result = filterOf(draft, zone);
    setProblem('problem' in result ? result.problem : undefined);
    if ('filter' in result) then(result.filter);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    read(onSearch);
  };
  const zoneNote = zone === 'utc' ? 'UTC' : 'your time zone';
  return (
    <Card as="section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="sr-only">
        Filters
      </h2>
      <form onSubmit={submit} aria-labelledby={`${id}-title`} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label="Lines by" htmlFor={`${id}-who`}>
          <select id={`${id}-who`} className={INPUT} value={draft.who} onChange={set('who')} aria-describedby={`${id}-who-note`}>
            {(['people', 'server', ''] as const).map((who) => (
              <option key={who} value={who}>
                {WHO_LABELS[who]}
              </option>
            ))}
          </select>
          <span id={`${id}-who-note`} className="mt-1 block text-xs text-slate-600">
            {WHO_NOTES[draft.who]}
          </span>
        </Field>
        <Field label="User" htmlFor={`${id}-user`}>
          <input
            id={`${id}-user`}
            className={INPUT}
            value={draft.user}
            onChange={set('user')}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-user-note`}
          />
          <span id={`${id}-user-note`} className="mt-1 block text-xs text-slate-600">
            The whole name, as signed in; capitals ignored.
          </span>
        </Field>
        <Field label="Candidate refId" htmlFor={`${id}-ref`}>
          <input id={`${id}-ref`} className={INPUT} value={draft.refId} onChange={set('refId')} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Candidate recordId" htmlFor={`${id}-record`}>
          <input
            id={`${id}-record`}
            className={INPUT}
            value={draft.recordId}
            onChange={set('recordId')}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field label="Action" htmlFor={`${id}-action`}>
          <select id={`${id}-action`} className={INPUT} value={draft.action} onChange={set('action')}>
            <option value="">Any</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Level" htmlFor={`${id}-level`}>
          <select id={`${id}-level`} className={INPUT} value={draft.level} onChange={set('level')}>
            <option value="">Any</option>
            {AUDIT_LEVELS.map((level) => (
              <option key={level} value={level}>
                {LEVEL_LABELS[level]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Environment" htmlFor={`${id}-env`}>
          <select id={`${id}-env`} className={INPUT} value={draft.env} onChange={set('env')}>
            <option value="">Any</option>
            {environments.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={`From (${zoneNote})`} htmlFor={`${id}-from`}>
          <input id={`${id}-from`} type="datetime-local" step={1} className={INPUT} value={draft.from} onChange={set('from')} />
        </Field>
        <Field label={`Before (${zoneNote})`} htmlFor={`${id}-to`}>
          <input id={`${id}-to`} type="datetime-local" step={1} className={INPUT} value={draft.to} onChange={set('to')} />
        </Field>
        <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit">Search the trail</Button>
          <Button variant="secondary" onClick={() => read(onExport)} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Download CSV'}
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraft(EMPTY_DRAFT);
              setProblem(undefined);
              onSearch(DEFAULT_FILTER);
            }}
          >
            Clear
          </Button>
          <span role="alert" className="text-sm text-red-800">
            {problem}
          </span>
        </div>
      </form>
    </Card>
  );
}

const WHO_NOTES: Record<'' | AuditWho, string> = {
  people: "Users of the app; not the queue crawler's reads, webhooks or the log's notes.",
  server: 'The queue crawler, webhook deliveries and their checks, notes of the log.',
  '': 'Every line of the trail.',
};

const INPUT =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 focus:border-blue-700 focus-ring';

function Field({ label, htmlFor, children }: { label: string; htmlFor: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}
