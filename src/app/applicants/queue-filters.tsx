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
  slaOffered,
  compliance,
  onChange,
}: {
  filter: ApplicantFilter | undefined;
  filters: QueueFilters;
  /** The environment has an SLA (the last view said its hours). */
  slaOffered: boolean;
  compliance: boolean;
  onChange: (next: QueueFilters) => void;
}) {
  const overSla = slaOffered && filter !== undefined && AGE_ORDERED_FILTERS.includes(filter);
  if (!overSla && !compliance) return null;
  return (
    <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-slate-800" data-testid="queue-filters">
      <legend className="float-left mr-3 font-medium text-slate-700">Show only</legend>
      {overSla && (
        <Toggle checked={filters.overSla === true} onChange={(checked) => onChange({ ...filters, overSla: checked })}>
          Over SLA only
        </Toggle>
      )}
      {compliance && (
        <Toggle checked={filters.attention === true} onChange={(checked) => onChange({ ...filters, attention: checked })}>
          Certificate needs attention
        </Toggle>
      )}
    </fieldset>
  );
}

/** A real checkbox with its label: the label's text is its name. */
function Toggle({ checked, onChange, children }: { checked: boolean; onChange: (checked: boolean) => void; children: string }) {
  return (
    <label className="inline-flex items-center gap-2">
      <input
        type="checkbox"
        className="h-4 w-4 rounded border-slate-400 text-blue-700 focus-ring"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      {children}
    </label>
  );
}

/** What the toggles leave of a tab, in words: the empty page says it, rather than that the tab is empty. */
export function filtersText(filters: QueueFilters): string | undefined {
  const names = [...(filters.overSla ? ['over the SLA'] : []), ...(filters.attention ? ['with a certificate that needs attention'] : [])];
  return names.length === 0 ? undefined : `No candidates of this tab are ${names.join(' and ')}.`;
}
