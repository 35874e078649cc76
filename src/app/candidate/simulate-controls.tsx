import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { SANDBOX_SIMULATE_PATH, type SimulateAction } from '../../kyc/contract/sandbox-simulate.ts';
import { asApiError } from '../api/api-error.ts';
import { apiRequest } from '../api/api-request.ts';
import { metaQueries } from '../meta/meta-query.ts';
import { Button } from '../ui/button.tsx';

const BUTTONS: Array<[SimulateAction, string, string]> = [
  ['ready_to_review', 'Ready to review', 'marked this candidate ready to review'],
  ['approve', 'Approve', 'approved this candidate'],
  ['reject', 'Reject', 'rejected this candidate'],
  ['block', 'Block', 'blocked this candidate'],
];

/**
 * Sandbox mode only: takes a reviewer's decision in the embedded sandbox, which sends its webhook, so a
 * newcomer sees the page update live. Never shown with a real service (the server has no such route then).
 * A tool, not a fact of the candidate: the page puts it after every section, out of the way of the
 * heading and the reading order.
 */
export function SimulateControls({ kind, id }: { kind: LookupKind; id: string }) {
  const [said, setSaid] = useState<string>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const simulate = async (action: SimulateAction, done: string) => {
    setBusy(true);
    try {
      await apiRequest(SANDBOX_SIMULATE_PATH, null, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind, id, action }),
      });
      setSaid(`The sandbox ${done} and sent its webhook.`);
      // The home page's sample cards show each candidate's status: read anew, as the sandbox now has it.
      void queryClient.invalidateQueries({ queryKey: metaQueries.all() });
    } catch (error) {
      setSaid(`Not simulated: ${asApiError(error, 'the server did not confirm it.').message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="space-y-2 rounded-xl border border-dashed border-slate-400 bg-white px-4 py-3 text-sm print:hidden">
      <legend className="px-1 font-medium text-slate-700">Sandbox tool: simulate a decision</legend>
      <p className="text-slate-600">
        A real service takes decisions in its own dashboard; the sandbox takes one here and sends its webhook, as the service would.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {BUTTONS.map(([action, label, done]) => (
          <Button key={action} variant="secondary" size="sm" busy={busy} onClick={() => void simulate(action, done)}>
            {label}
          </Button>
        ))}
        <span role="status" className="text-slate-700">
          {said}
        </span>
      </div>
    </fieldset>
  );
}
