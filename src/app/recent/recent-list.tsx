import { Link } from '../navigation.tsx';
import { formatRelative } from '../../kyc/view/time.ts';
import { useZoneMode } from '../ui/zone-mode.ts';
import { candidateLink, useDefaultEnvironment } from '../meta/candidate-link.ts';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useNow } from '../ui/use-now.ts';
import { useRecentLookups } from './recent-lookups.ts';

/**
 * The last lookups of this tab, newest first: one click opens one again, at the address the app's other
 * links give that candidate (an entry holds its environment's name, however the page was reached).
 */
export function RecentLookups() {
  const recent = useRecentLookups();
  const now = useNow();
  const zone = useZoneMode();
  const defaultEnvironment = useDefaultEnvironment();
  if (recent.length === 0) return null;
  return (
    <section aria-labelledby="recent-heading" className="mt-5">
      <h2 id="recent-heading" className="text-sm font-semibold text-slate-700">
        Recent lookups
      </h2>
      <ul className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200">
        {recent.map((entry) => (
          <li key={`${entry.environment}:${entry.kind}:${entry.id}`}>
            <Link
              to={candidateLink(entry.kind, entry.id, entry.environment, defaultEnvironment)}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm hover:bg-slate-50 focus-ring"
            >
              <span className="text-xs text-slate-500">{entry.kind}</span>
              <span className="min-w-0 font-mono break-all text-slate-900">{entry.id}</span>
              <StatusBadge status={entry.status} size="sm" />
              <span className="text-xs text-slate-500">{entry.environment}</span>
              <time dateTime={entry.at} className="ml-auto text-xs text-slate-500">
                {formatRelative(new Date(entry.at), now, { zone })}
              </time>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
