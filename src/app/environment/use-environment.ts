import { useQuery } from '@tanstack/react-query';
import { useLocation } from '../navigation.tsx';
import type { EnvironmentInfo } from '../../kyc/contract/api.ts';
import { metaQueries } from '../meta/meta-query.ts';
import { environmentPath, splitEnvironmentPath } from '../routes.ts';

/**
 * The environment named in the URL (`/e/<name>/…`; undefined for the unprefixed form, which means the
 * server's first one), the page path without it, and `to(path)` for links that stay in it.
 */
export function useEnvironmentPath() {
  const { pathname } = useLocation();
  const { environment, path } = splitEnvironmentPath(pathname);
  return { environment, path, to: (page: string) => environmentPath(environment, page) };
}

/** The environment of the page with what the server says about it (undefined until `/api/meta` answered). */
export function useEnvironment(options: { enabled?: boolean } = {}) {
  const location = useEnvironmentPath();
  const meta = useQuery({ ...metaQueries.current(location.environment), enabled: options.enabled ?? true });
  return { ...location, meta: meta.data, info: meta.data?.environment };
}

/** What the header badge says: "Sandbox", or the label with the client id, e.g. "Production · acme_kyc". */
export function environmentBadgeText(info: EnvironmentInfo): string {
  if (info.upstream === 'sandbox') return info.label;
  return info.clientId ? `${info.label} · ${info.clientId}` : info.label;
}
