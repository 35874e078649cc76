import { useEffect, useState } from 'react';

/**
 * How long a candidate page reached by Previous or Next (`k`, `j`) waits, with no further step, before it
 * asks for the full record. A full lookup is written to the audit log and to the candidate's Activity,
 * where colleagues read who looked at whom: a reviewer pressing `j` three times to skip ahead saw the
 * two candidates passed over for a moment, not their record, and no lookup of them is written.
 */
export const STEP_SETTLE_MS = 300;

/**
 * The last step taken whose page is not shown yet (0: none). The wait is counted from when that page is
 * shown, not from the step: a reviewer presses `j` again on seeing the next candidate, and where drawing it
 * took longer than STEP_SETTLE_MS (a slow or busy machine: a Playwright run with a load of 15 on two cores),
 * a wait counted from the step had ended before the page showed, and the candidate passed over was looked up.
 * Numbered, so that a page shown clears only its own step, not one a key held for it took meanwhile.
 */
let pendingStep = 0;
let steps = 0;

/** A step to a neighbour is being taken (the review bar, before it navigates). */
export function noteStep(): void {
  steps += 1;
  pendingStep = steps;
}

/**
 * Whether the candidate page may look its candidate up: at once for a page opened otherwise (a queue row,
 * the search box, a link), and for one a step led to once STEP_SETTLE_MS have passed since it was shown.
 * A further step meanwhile replaces the page, whose wait ends with it.
 */
export function useStepSettled(): boolean {
  // Read, not taken, while drawing (React may draw twice before showing); taken once shown, below.
  const [step] = useState(() => pendingStep);
  const [settled, setSettled] = useState(step === 0);
  useEffect(() => {
    if (pendingStep === step) pendingStep = 0;
    if (settled) return;
    const timer = setTimeout(() => setSettled(true), STEP_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [settled, step]);
  return settled;
}
