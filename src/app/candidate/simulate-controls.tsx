import { useState } from 'react';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { SANDBOX_SIMULATE_PATH, type SimulateAction } from '../../kyc/contract/sandbox-simulate.ts';
import { asApiError } from '../api/api-error.ts';
import { apiRequest } from '../api/api-request.ts';
import { Button } from '../ui/button.tsx';

const BUTTONS: Array<[SimulateAction, string, string]> = [
  ['ready_to_review', 'Ready to review', 'set ready to review'],
  ['approve', 'Approve', 'approved'],
  ['reject', 'Reject', 'rejected'],
  ['block', 'Block', 'blocked'],
];

/**
 * Sandbox mode only: takes a reviewer's decision in the embedded sandbox, which sends its webhook, so a
 * newcomer sees the page update live. Never shown with a real service (the server has no such route then).
 */
export function SimulateControls({ kind, id }: { kind: LookupKind; id: string }) {
  const [said, setSaid] = useState<string>();
  const [busy, setBusy] = useState(false);
  const simulate = async (action: SimulateAction, done: string) => {
    setBusy(true);
    try {
      await apiRequest(SANDBOX_SIMULATE_PATH, null, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind, id, action }),
      });
      setSaid(`The sandbox ${done} this candidate and sent its webhook.`);
    } catch (error) {
      setSaid(`Not simulated: ${asApiError(error, 'the server did not confirm it.').message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="flex flex-wrap items-center gap-2 rounded-xl border border-dashed border-slate-400 px-4 py-2 text-sm print:hidden">
      <legend className="px-1 font-medium text-slate-700">Simulate (sandbox only)</legend>
      {BUTTONS.map(([action, label, done]) => (
        <Button key={action} variant="secondary" size="sm" disabled={busy} onClick={() => void simulate(action, done)}>
          {label}
        </Button>
      ))}
      <span role="status" className="text-slate-700">
        {said}
      </span>
    </fieldset>
  );
}
