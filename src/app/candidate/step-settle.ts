import { useEffect, useState } from 'react';

/**
 * How long a candidate page reached by Previous or Next (`k`, `j`) waits, with no further step, before it
 * asks for the full record. A full lookup is written to the audit log and to the candidate's Activity,
 * where colleagues read who looked at whom: a reviewer pressing `j` three times to skip ahead saw the
 * two candidates passed over for a moment, not their record, and no lookup of them is written.
 */
export const STEP_SETTLE_MS = 300;

/** When the last step was taken (performance.now()), in this tab. */
let steppedAt = Number.NEGATIVE_INFINITY;

/** A step to a neighbour is being taken (the review bar, before it navigates). */
export function noteStep(): void {
  steppedAt = performance.now();
}

/**
 * Whether the candidate page may look its candidate up: at once for a page opened otherwise (a queue row,
 * the search box, a link), and for one a step led to once STEP_SETTLE_MS have passed since that step.
 * A further step meanwhile replaces the page, whose wait ends with it.
 */
export function useStepSettled(): boolean {
  const [wait] = useState(() => steppedAt + STEP_SETTLE_MS - performance.now());
  const [settled, setSettled] = useState(wait <= 0);
  useEffect(() => {
    if (settled) return;
    const timer = setTimeout(() => setSettled(true), wait);
    return () => clearTimeout(timer);
  }, [settled, wait]);
  return settled;
}
