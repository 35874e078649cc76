import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_LEVELS, type AuditFilter, type AuditFilterAction, type AuditWho } from '../../kyc/contract/audit-search.ts';
import { FILTER_ACTION_LABELS, LEVEL_LABELS } from '../../kyc/view/audit-labels.ts';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import type { AuditHandOver } from '../routes.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { DEFAULT_FILTER, EMPTY_DRAFT, type FilterDraft, filterOf, rezoned } from './audit-draft.ts';
import { recallAudit, rememberAudit } from './audit-memory.ts';
import { AuditRangeButtons } from './audit-range-buttons.tsx';

/** Who the lines are by, as the select names it. */
/**
 * The Action filter's choices: "Saw in the queue" of its own, next to "Listed applicants", the queue views
 * that named nobody; never a full answer's closing line (`held`), which is no row of its own.
 */
const ACTION_CHOICES: readonly AuditFilterAction[] = AUDIT_ACTIONS.flatMap((action) =>
  action === 'list' ? (['list', 'saw_in_queue'] as const) : action === 'held' ? [] : [action],
);

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
  heldBy,
  exportHeldBy,
  candidate,
  picked,
}: {
  environments: readonly string[];
  onSearch: (filter: AuditFilter) => void;
  onExport: (filter: AuditFilter) => void;
  exporting: boolean;
  /**
   * The notice of a wait the server asked for (audit-wait.tsx), while it runs: Search and Download CSV say
   * they are unavailable and why, and ignore presses, keeping the keyboard's focus (aria-disabled, not disabled).
   */
  heldBy?: string | undefined;
  /** The notice of the downloads' wait (two of the lead's still under way, audit-export.tsx), while it runs: Download CSV alone is held. */
  exportHeldBy?: string | undefined;
  /** A candidate handed over by its Activity: the form starts with its ids (the page searched them). */
  candidate?: AuditHandOver['audit'] | undefined;
  /** A user's name offered under the results and searched: the User field says it too, as Download CSV reads the form. */
  picked?: { user: string } | undefined;
}) {
  const [draft, setDraft] = useState<FilterDraft>(() =>
    candidate ? { ...EMPTY_DRAFT, ...candidate } : (recallAudit().draft ?? EMPTY_DRAFT),
  );
  useEffect(() => rememberAudit({ draft }), [draft]);
  useEffect(() => {
    if (picked) setDraft((typed) => ({ ...typed, user: picked.user }));
  }, [picked]);
  const [problem, setProblem] = useState<string>();
  const zone = useZoneMode();
  // The header's UTC switch: From and Before are written anew in the zone the page now shows.
  useEffect(() => setDraft((typed) => rezoned(typed, zone)), [zone]);
  const id = useId();
  const set = (name: keyof FilterDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const form = useRef<HTMLFormElement>(null);
  const read = (then: (filter: AuditFilter) => void, next = draft) => {
    // A date typed without its time is no value to the browser: Search is stopped by the form's own check,
    // and Download CSV, a plain button, took it as no limit at all. Both are checked alike.
    // A quick range's draft (whole times) is written into the form as the lead would type it, and searched.
    if (next !== draft) setDraft(next);
    else if (form.current && !form.current.reportValidity()) return;
    const result = filterOf(next, zone);
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
      <form ref={form} onSubmit={submit} aria-labelledby={`${id}-title`} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
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
            {ACTION_CHOICES.map((action) => (
              <option key={action} value={action}>
                {FILTER_ACTION_LABELS[action]}
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
        <AuditRangeButtons draft={draft} zone={zone} onPick={(next) => (heldBy === undefined ? read(onSearch, next) : setDraft(next))} />
        <FormActions
          // The file is what the table then shows: filters typed but not searched are searched too (the page does, onExport).
          onExport={() => read(onExport)}
          onClear={() => {
            setDraft(EMPTY_DRAFT);
            setProblem(undefined);
            onSearch(DEFAULT_FILTER);
          }}
          exporting={exporting}
          heldBy={heldBy}
          exportHeldBy={exportHeldBy}
          problem={problem}
        />
      </form>
    </Card>
  );
}

/**
 * Search, Download CSV and Clear, held while a wait the server asked for runs (`heldBy`; Download CSV alone
 * for the downloads' wait, `exportHeldBy`), and what was wrong with the form.
 */
function FormActions({
  onExport,
  onClear,
  exporting,
  heldBy,
  exportHeldBy,
  problem,
}: {
  onExport: () => void;
  onClear: () => void;
  exporting: boolean;
  heldBy: string | undefined;
  exportHeldBy: string | undefined;
  problem: string | undefined;
}) {
  const held = { busy: heldBy !== undefined, 'aria-describedby': heldBy };
  const csvHeldBy = heldBy ?? exportHeldBy;
  return (
    <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-4">
      <Button type="submit" {...held}>
        Search the trail
      </Button>
      <Button variant="secondary" onClick={onExport} busy={exporting || csvHeldBy !== undefined} aria-describedby={csvHeldBy}>
        {exporting ? 'Exporting…' : 'Download CSV'}
      </Button>
      <Button variant="secondary" onClick={onClear}>
        Clear
      </Button>
      <span role="alert" className="text-sm text-red-800">
        {problem}
      </span>
    </div>
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
