import type http from 'node:http';
import { APP_REQUEST_HEADER } from '../../kyc/contract/api.ts';
import { ApiFailure } from './api-failure.ts';

/**
 * Which requests the API answers at all, before anyone is identified (nothing here is audited: such a
 * request is not a lookup). Two checks:
 * - It comes from the app's own pages. A page on another site could otherwise make lookups in a
 *   signed-in user's name (a `no-cors` fetch, a link, a form): it could not read the answers, but it
 *   would write the audit trail in that user's name and spend the key's quota. Browsers say where a
 *   request comes from (`Sec-Fetch-Site`), and only the app sends its custom header: another site would
 *   need a CORS preflight for it, and that preflight (an OPTIONS without the header) is refused here.
 * - In local mode (no sign-in, this machine only), it did not come through a reverse proxy: one on this
 *   machine would open the server to its network, since every request would arrive from loopback.
 */

/** What a reverse proxy adds (nginx, Apache, HAProxy, Caddy, cloud load balancers). */
const PROXY_HEADERS = ['Forwarded', 'X-Forwarded-For', 'Via', 'X-Forwarded-Host', 'X-Forwarded-Proto', 'X-Real-IP'] as const;
const APP_HEADER = APP_REQUEST_HEADER.name.toLowerCase();

export interface RequestGuardOptions {
  /** Local mode without sign-in: refuse requests that came through a proxy. */
  refuseProxied: boolean;
  /** A route reached by top-level navigation (a sign-in redirect back from a provider): it cannot carry the header. */
  navigation: boolean;
  /**
   * The live updates' stream (`GET /api/events`): a browser's EventSource cannot send the app's header, so
   * a GET of it is accepted without the header when the browser says it comes from this very origin.
   */
  eventStream?: boolean;
}

export function refusalOf(req: http.IncomingMessage, options: RequestGuardOptions): ApiFailure | undefined {
  if (options.refuseProxied) {
    const header = PROXY_HEADERS.find((name) => req.headers[name.toLowerCase()] !== undefined);
    if (header) {
      return new ApiFailure(
        'proxied_request',
        `This request came through a proxy (it carries ${header}), but no sign-in is configured: ` +
          "without sign-in this server answers this machine only. Configure sign-in (CONFIG_FILE's signIn: built-in users, an " +
          'identity-aware proxy or OpenID Connect), or set "allowUnauthenticated": true there if the proxy itself guards access.',
      );
    }
  }
  if (options.navigation) return undefined;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    const from = site === 'same-site' ? 'another site of the same domain' : site === 'cross-site' ? 'another site' : 'elsewhere';
    return new ApiFailure(
      'not_from_app',
      `This API answers the Candidate Lookup app's own pages only; this request came from ${from} (Sec-Fetch-Site).`,
    );
  }
  if (options.eventStream && req.method === 'GET' && fromSameOrigin(req)) return undefined;
  if (req.headers[APP_HEADER] !== APP_REQUEST_HEADER.value) {
    return new ApiFailure(
      'not_from_app',
      `This API answers the Candidate Lookup app only: requests must carry the header ${APP_REQUEST_HEADER.name}: ` +
        `${APP_REQUEST_HEADER.value} (the app always sends it; scripts calling the API must send it too).`,
    );
  }
  return undefined;
}

/**
 * Whether the browser says the request comes from a page of this origin: `Sec-Fetch-Site: same-origin`,
 * or (a browser without it) an `Origin` naming this very host. A request saying neither proves nothing
 * and needs the app's header. The stream has no side effect and its answer cannot be read from another
 * site (no CORS), so this only keeps other sites from holding a user's streams open.
 */
function fromSameOrigin(req: http.IncomingMessage): boolean {
  if (req.headers['sec-fetch-site'] !== undefined) return req.headers['sec-fetch-site'] === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined || req.headers.host === undefined) return false;
  return origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`;
}
