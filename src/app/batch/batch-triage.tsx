import { useId } from 'react';
import type { BatchTriage } from '../../kyc/contract/batch.ts';
import type { BatchLine } from '../../kyc/view/batch-export.ts';
import { lineNeedsAttention } from '../../kyc/view/batch-triage.ts';
import { OutcomeChip } from '../ui/outcome-chip.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';

/**
 * A compliance user's or lead's batch row: what the queue index knows of the candidate for triage, as
 * their queue shows it (the certificates' worst outcome with the queue's chip, a record without pictures),
 * as of when the index learnt it; or that it knows nothing yet, which only opening the candidate tells.
 */
export function TriageCell({ triage }: { triage: BatchTriage | undefined }) {
  if (!triage?.known) {
    return (
      <td className="px-3 py-2 text-xs text-slate-600 italic" data-label="Certificates" data-triage="unknown">
        Not known yet: open the candidate
      </td>
    );
  }
  const asOf = triage.asOf ? new Date(triage.asOf) : undefined;
  return (
    <td className="px-3 py-2 text-xs" data-label="Certificates" data-triage={triage.certificate ?? 'none'}>
      <span className="flex flex-wrap items-center gap-1">
        {triage.certificate ? <OutcomeChip value={triage.certificate} /> : <span className="text-slate-700">no certificates</span>}
        {triage.pictures === false && <span className="text-slate-600 italic">no pictures</span>}
      </span>
      <span className="mt-0.5 block text-slate-600">
        {asOf && !Number.isNaN(asOf.getTime()) ? (
          <>
            as of <TimeStamp date={asOf} inline />
          </>
        ) : (
          'as of an earlier lookup'
        )}
      </span>
    </td>
  );
}

/**
 * "Needs attention first": a real checkbox, so the keyboard reaches it with Tab and Space; the rows whose
 * certificate needs attention move to the top, each part in the list's order, and `j`/`k` from a row's
 * candidate follow the order shown (batch-place.ts).
 */
export function AttentionFirst({ lines, on, onChange }: { lines: readonly BatchLine[]; on: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  const count = lines.filter((line) => line.repeatOf === undefined && lineNeedsAttention(line)).length;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700 print:hidden">
      <input id={id} type="checkbox" checked={on} onChange={(event) => onChange(event.target.checked)} className="size-4 focus-ring" />
      <label htmlFor={id}>Needs attention first</label>
      <span className="text-slate-600" data-testid="attention-count">
        ({count === 1 ? '1 candidate' : `${count} candidates`} with a certificate that needs attention, as far as the queue index knows)
      </span>
    </p>
  );
}
