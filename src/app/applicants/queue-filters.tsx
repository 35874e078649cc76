import { useId } from 'react';
import { AGE_ORDERED_FILTERS, type ApplicantFilter } from '../../kyc/contract/applicants.ts';
import type { QueueFilters } from './applicants-queries.ts';

/**
 * The queue's toggles (issue 32), read from the index like the rest of the view: "Over SLA only" on a
 * tab of a status with an SLA (waiting, in review, review requested), "Certificate needs attention" for
 * compliance users (the certificates' outcome is theirs to see). Real checkboxes with their labels, kept
 * in the address like the tab and the page.
 */
export function QueueFilterToggles({
  filter,
  filters,
  slaHours,
  compliance,
  onChange,
}: {
  filter: ApplicantFilter | undefined;
  filters: QueueFilters;
  /** The environment's SLA in hours (the last view said it); undefined: none. */
  slaHours: number | undefined;
  compliance: boolean;
  onChange: (next: QueueFilters) => void;
}) {
  const overSla = slaHours !== undefined && filter !== undefined && AGE_ORDERED_FILTERS.includes(filter);
  if (!overSla && !compliance) return null;
  return (
    <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-slate-800" data-testid="queue-filters">
      <legend className="float-left mr-3 font-medium text-slate-700">Show only</legend>
      {overSla && (
        <Toggle
          checked={filters.overSla === true}
          onChange={(checked) => onChange({ ...filters, overSla: checked })}
          note={`In this status for more than ${slaHours} hours.`}
        >
          Over SLA only
        </Toggle>
      )}
      {compliance && (
        <Toggle
          checked={filters.attention === true}
          onChange={(checked) => onChange({ ...filters, attention: checked })}
          note={ATTENTION_KNOWN}
        >
          Certificate needs attention
        </Toggle>
      )}
    </fieldset>
  );
}

/**
 * A certificate's outcome is learnt from a lookup's answer (record-triage.ts), never from the service's
 * list, which the queue reads for the status and dates alone: a candidate nobody opened here is not known
 * to need attention, whatever its certificates say.
 */
const ATTENTION_KNOWN = 'Known for candidates opened in this app: the queue does not read certificates from the list.';

/** A real checkbox with its label: the label's text is its name, and `note` (beside it) its description. */
function Toggle({
  checked,
  onChange,
  note,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  note?: string;
  children: string;
}) {
  const noteId = useId();
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2">
      <label className="inline-flex items-center gap-2">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-400 text-blue-700 focus-ring"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={note ? noteId : undefined}
        />
        {children}
      </label>
      {note && (
        // On a phone the note is the checkbox's description only (read out with it), not two more lines above the rows.
        <span id={noteId} className="text-xs text-slate-600 max-sm:hidden">
          {note}
        </span>
      )}
    </span>
  );
}

/** What the toggles leave of a tab, in words: the empty page says it, rather than that the tab is empty. */
export function filtersText(filters: QueueFilters): string | undefined {
  const names = [
    ...(filters.overSla ? ['are over the SLA'] : []),
    ...(filters.attention ? ['have a certificate that needs attention'] : []),
  ];
  if (names.length === 0) return undefined;
  return `No candidates of this tab ${names.join(' and ')}${filters.attention ? ', of those opened in this app' : ''}.`;
}
