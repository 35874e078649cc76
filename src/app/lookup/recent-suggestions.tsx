import { statusInfo } from '../../kyc/contract/status.ts';
import type { RecentLookup } from '../recent/recent-lookups.ts';

/** The box's suggestions: each recent lookup's id, with its status as every page says it (statusInfo) and its environment. */
export function RecentSuggestions({ id, recent }: { id: string; recent: readonly RecentLookup[] }) {
  return (
    <datalist id={id}>
      {recent.map((r) => (
        <option key={`${r.environment}:${r.id}`} value={r.id} label={`${statusInfo(r.status).label} · ${r.environment}`} />
      ))}
    </datalist>
  );
}
