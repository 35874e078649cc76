import type { ApiMeta, EnvironmentInfo, EnvironmentTone } from '../../kyc/contract/api.ts';
import { navigate } from '../navigation.tsx';
import { environmentPath, HOME_PATH, type LookupDraft, parseCandidatePath } from '../routes.ts';
import { cn } from '../ui/cn.ts';
import { environmentBadgeText } from './use-environment.ts';

/** The badge's colour as the environment's `tone` says: production red, staging amber, else grey. */
const TONE_CLASSES: Record<EnvironmentTone, string> = {
  danger: 'border-red-300 bg-red-100 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  neutral: 'border-slate-300 bg-slate-100 text-slate-800',
};

/** The header's top edge in the same family, so that a screenshot of any page shows which environment it came from. */
const EDGE_CLASSES: Record<EnvironmentTone, string> = {
  danger: 'border-t-4 border-t-red-600',
  warning: 'border-t-4 border-t-amber-500',
  neutral: '',
};

/** The environment's tone as the badge and the header show it: the sandbox keeps its own look. */
export function toneOf(info: EnvironmentInfo | undefined): EnvironmentTone | 'sandbox' {
  if (info?.upstream === 'sandbox') return 'sandbox';
  return info?.tone ?? 'neutral';
}

/** The header's edge for the environment shown (none for the sandbox and a neutral one). */
export function environmentEdgeClass(info: EnvironmentInfo | undefined): string {
  const tone = toneOf(info);
  return tone === 'sandbox' ? '' : EDGE_CLASSES[tone];
}

/**
 * Where switching to the environment `name` goes: the same page there, but from a candidate page the
 * other environment's home page with the id in the box, looked up only when the user presses Enter (a
 * candidate looked up by surprise in production is a lookup nobody meant, and an audit line).
 */
function switchTo(name: string, path: string): void {
  const route = parseCandidatePath(path);
  if (route?.id !== undefined) {
    const draft: LookupDraft = { draft: { kind: route.kind, id: route.id } };
    navigate(environmentPath(name, HOME_PATH), { state: draft });
  } else {
    navigate(`/e/${encodeURIComponent(name)}${path === '/' ? '' : path}`);
  }
}

/**
 * The header always names the environment the page looks up in. Below 1280 px the badge shows its label alone
 * (the client id stays in its text for screen readers, and in its tooltip): "Production · acme_production" took
 * 204 px of a 976 px row that the search box needs at 1024 px.
 */
export function EnvironmentBadge({ info }: { info: EnvironmentInfo }) {
  const sandbox = info.upstream === 'sandbox';
  // The same words as environmentBadgeText: the label, then the client id.
  const clientId = environmentBadgeText(info).slice(info.label.length);
  return (
    <span
      data-testid="environment-badge"
      data-tone={toneOf(info)}
      title={
        sandbox
          ? 'Made-up sample candidates from the embedded sandbox upstream, not real people.'
          : `Lookups go to the ${info.label} environment (client id ${info.clientId ?? 'unknown'}).`
      }
      className={cn(
        'min-w-0 truncate rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide max-xl:max-w-40',
        sandbox ? 'border-amber-400 bg-amber-100 text-amber-950 uppercase' : TONE_CLASSES[info.tone ?? 'neutral'],
      )}
    >
      {info.label}
      {clientId && <span className="max-xl:sr-only">{clientId}</span>}
    </span>
  );
}

/**
 * With several environments, the switch between them: under the header's Menu (app-shell.tsx), beside the
 * badge that stays in the row, so that the row keeps its room for the search box.
 */
export function EnvironmentSwitcher({ meta, path }: { meta: ApiMeta; path: string }) {
  if (meta.environments.length < 2) return null;
  return (
    <span className="flex items-center gap-2 text-sm text-slate-700">
      <label htmlFor="environment-switcher">Environment</label>
      <select
        id="environment-switcher"
        value={meta.allowed ? meta.environment.name : ''}
        onChange={(event) => switchTo(event.target.value, path)}
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
