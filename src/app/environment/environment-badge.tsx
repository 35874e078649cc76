import type { ApiMeta, EnvironmentTone } from '../../kyc/contract/api.ts';
import { navigate } from '../navigation.tsx';
import { cn } from '../ui/cn.ts';
import { environmentBadgeText } from './use-environment.ts';

/** The badge's colour as the environment's `tone` says: production red, staging amber, else grey. */
const TONE_CLASSES: Record<EnvironmentTone, string> = {
  danger: 'border-red-300 bg-red-100 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  neutral: 'border-slate-300 bg-slate-100 text-slate-800',
};

/**
 * The header always names the environment the page looks up in; with several, it switches between
 * them, keeping the page (a candidate is looked up again in the other environment).
 */
export function EnvironmentControl({ meta, path }: { meta: ApiMeta; path: string }) {
  const info = meta.environment;
  const sandbox = info.upstream === 'sandbox';
  const badge = (
    <span
      data-testid="environment-badge"
      title={
        sandbox
          ? 'Made-up sample candidates from the embedded sandbox upstream, not real people.'
          : `Lookups go to the ${info.label} environment (client id ${info.clientId ?? 'unknown'}).`
      }
      className={cn(
        'rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide whitespace-nowrap',
        sandbox ? 'border-amber-400 bg-amber-100 text-amber-950 uppercase' : TONE_CLASSES[info.tone ?? 'neutral'],
      )}
    >
      {environmentBadgeText(info)}
    </span>
  );
  if (meta.environments.length < 2) return badge;
  return (
    <span className="flex items-center gap-2">
      {badge}
      <label className="sr-only" htmlFor="environment-switcher">
        Environment
      </label>
      <select
        id="environment-switcher"
        value={meta.allowed ? info.name : ''}
        onChange={(event) => navigate(`/e/${encodeURIComponent(event.target.value)}${path === '/' ? '' : path}`)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800 focus-ring print:hidden"
      >
        {!meta.allowed && <option value="">Choose an environment</option>}
        {meta.environments.map((environment) => (
          <option key={environment.name} value={environment.name}>
            {environment.label}
          </option>
        ))}
      </select>
    </span>
  );
}
