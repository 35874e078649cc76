import type { AuditRow } from '../../kyc/contract/audit-search.ts';
import { levelText, levelTitle } from '../../kyc/view/audit-labels.ts';

/**
 * What a lookup's audit line says the user saw ("Full key; held: 5 identity attributes, no pictures, 1 certificate", "Full key asked, nothing
 * shown"), its meaning in plain words as its title: on the audit page and in a candidate's Activity alike.
 * Nothing for a line without a level.
 */
export function AuditLevel({ row }: { row: Pick<AuditRow, 'level' | 'status' | 'action' | 'held' | 'heldCut'> }) {
  const text = levelText(row);
  if (!text) return null;
  return (
    <span title={levelTitle(row)} className="cursor-help underline decoration-slate-400 decoration-dotted underline-offset-2">
      {text}
    </span>
  );
}
