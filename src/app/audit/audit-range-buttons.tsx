import type { ZoneMode } from '../../kyc/view/time.ts';
import { Button } from '../ui/button.tsx';
import type { FilterDraft } from './audit-draft.ts';
import { AUDIT_RANGES, rangeNameOf, rangeOf } from './audit-ranges.ts';

/**
 * Today, Yesterday, Last 7 days, Last 30 days: a press fills From and Before (audit-ranges.ts) and
 * searches. The range they hold is shown pressed (`aria-pressed`), and stays editable in the two fields:
 * a time typed there unpresses it. A fieldset, named by its legend for screen readers; each a button of the tab order.
 */
export function AuditRangeButtons({ draft, zone, onPick }: { draft: FilterDraft; zone: ZoneMode; onPick: (next: FilterDraft) => void }) {
  const chosen = rangeNameOf(draft.from, draft.to, new Date(), zone);
  return (
    <fieldset className="sm:col-span-2">
      <legend className="block text-sm font-medium text-slate-700">
        Quick range ({zone === 'utc' ? 'UTC days' : 'days of your time zone'})
      </legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {AUDIT_RANGES.map(({ name, label }) => (
          <Button
            key={name}
            variant="secondary"
            aria-pressed={chosen === name}
            className="aria-pressed:border-blue-700 aria-pressed:bg-blue-50 aria-pressed:text-blue-800"
            onClick={() => onPick({ ...draft, ...rangeOf(name, new Date(), zone), zone })}
          >
            {label}
          </Button>
        ))}
      </div>
    </fieldset>
  );
}
