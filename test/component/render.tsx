import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { AppRoutes } from '../../src/app/app.tsx';
import { type AppLocation, BrowserHistory, navigate, useLocation } from '../../src/app/navigation.tsx';
import { APP_REQUEST_HEADER, type ApiMeta, type SessionInfo } from '../../src/kyc/contract/api.ts';
import { APPLICANT_FILTERS, type Applicant, type ApplicantsPage } from '../../src/kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { DEFAULT_REPLIES } from '../../src/kyc/contract/replies.ts';
import type { ActivityAnswer } from '../../src/kyc/contract/audit-search.ts';

type LocationHolder = { location?: AppLocation };

/** Keeps the location the pages render where the test can reach it. */
function LocationProbe({ into }: { into: LocationHolder }) {
  into.location = useLocation();
  return null;
}

/**
 * The whole app at a route, with a fresh QueryClient, in jsdom's own history (the address is replaced,
 * so a test starts with no state from the one before). Its default of no retries applies only to
 * queries that set none: the app's own queries keep their `retry` (the session and meta retry once, a
 * lookup retries a broken connection once), as they do in the browser.
 */
export function renderWithProviders(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const current: LocationHolder = {};
  window.history.replaceState(null, '', path);
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <BrowserHistory>
        <AppRoutes />
        <LocationProbe into={current} />
      </BrowserHistory>
    </QueryClientProvider>,
  );
  const router = {
    state: {
      get location() {
        return current.location!;
      },
    },
    /** As the browser's Back button (`-1`; jsdom answers it with a popstate a task later), or a link. */
    navigate: (to: string | -1) => act(() => (to === -1 ? window.history.back() : navigate(to))),
  };
  return { ...utils, router, queryClient };
}

type Reply = Response | (() => Response | Promise<Response>);

/**
 * Stands in for the project's proxy (the only thing outside the browser): answers /api/meta and
 * candidate lookups from the given table, and records every request.
 */
export function stubApi(
  options: {
    /** What /api/meta answers, or (a function) what each environment's meta path answers. */
    meta?: ApiMeta | ((url: string) => ApiMeta);
    session?: SessionInfo | (() => Response);
    candidates?: Record<string, Reply>;
    applicants?: Applicant[];
    /** Each tab's extras in the applicants' answers (its SLA, over-SLA count…). */
    queueExtras?: QueueExtras;
    /** The tabs the index has never read whole and knows none of: counted `unread`. */
    queueUnread?: string[];
    activity?: ActivityAnswer | (() => Response);
  } = {},
) {
  const requests: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    requests.push(url);
    // As the server does: a call without the app's header is not the app's.
    if (new Headers(init?.headers).get(APP_REQUEST_HEADER.name) !== APP_REQUEST_HEADER.value) {
      return json({ status: 'error', error: { code: 'not_from_app', message: `${url} without ${APP_REQUEST_HEADER.name}` } }, 403);
    }
    if (url === '/api/session') {
      const session = options.session ?? { mode: 'local', user: 'local', role: 'compliance' };
      return typeof session === 'function' ? session() : json(session);
    }
    if (url === '/api/meta' || /^\/api\/e\/[^/]+\/meta$/.test(url)) {
      return json(typeof options.meta === 'function' ? options.meta(url) : (options.meta ?? testMeta()));
    }
    if (options.applicants && url.startsWith('/api/applicants'))
      return applicantsAnswer(new URL(url, 'http://test'), options.applicants, {
        extra: options.queueExtras,
        unread: options.queueUnread,
      });
    // Presence: answered with the candidate's rooms, as the server makes them (testRooms stands in for its keyed hash).
    if (url === '/api/presence') {
      const { candidate } = JSON.parse(String(init?.body)) as { candidate: { refId: string | null; recordId: string | null } | null };
      return json({ rooms: candidate ? testRooms(candidate) : [] });
    }
    // A candidate's Activity (issue 34): nobody else has looked, unless the test says otherwise.
    if (/^\/api(\/e\/[^/]+)?\/activity$/.test(url)) {
      return typeof options.activity === 'function' ? options.activity() : json(options.activity ?? emptyActivity());
    }
    const reply = options.candidates?.[url];
    if (!reply) return json({ status: 'error', error: { code: 'not_found', message: `No candidate (${url}).` } }, 404);
    return typeof reply === 'function' ? reply() : reply.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}

/** A candidate's presence rooms in these tests: one per id, as the server's (lookup/presence-rooms.ts), without its key. */
export function testRooms({ refId, recordId }: { refId?: string | null | undefined; recordId?: string | null | undefined }): string[] {
  return [...(refId ? [`room-ref-${refId}`] : []), ...(recordId ? [`room-record-${recordId}`] : [])];
}

/** A candidate's Activity with nothing in it, read from the files. */
export function emptyActivity(): ActivityAnswer {
  return { rows: [], since: new Date(Date.now() - 90 * 86_400_000).toISOString(), more: false, source: { kind: 'files' } };
}

/** What /api/meta says about one environment: a remote service unless told otherwise. */
export function testMeta(overrides: Partial<ApiMeta> = {}): ApiMeta {
  const upstream = overrides.upstream ?? 'remote';
  const environment =
    upstream === 'sandbox'
      ? { name: 'sandbox', label: 'Sandbox', upstream }
      : { name: 'default', label: 'Production', clientId: 'acme_kyc', upstream };
  return { upstream, environment, allowed: true, environments: [environment], replyTemplates: DEFAULT_REPLIES, live: false, ...overrides };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A tab's extras in the answer (its order, SLA), by tab key ('all' or the filter). */
export type QueueExtras = Record<
  string,
  Partial<Pick<ApplicantsPage, 'order' | 'slaHours' | 'overSla' | 'overSlaPartial' | 'skipped' | 'index'>>
>;

/**
 * `/api/applicants` over an in-memory list, as the server answers it: the page of `url`'s status, skip
 * and limit, with its tab's extras; with `counts=1` every tab's count and over-SLA count, and the
 * filters the service refuses (`refused`: without the counts, such a filter's page is a 404); the tabs
 * whose count failed (`unavailable`).
 */
export function applicantsAnswer(
  url: URL,
  applicants: Applicant[],
  options: { extra?: QueueExtras; refused?: string[]; unavailable?: string[]; unread?: string[] | undefined } = {},
): Response {
  const status = url.searchParams.get('status') ?? '';
  const refused = options.refused ?? [];
  const withCounts = url.searchParams.get('counts') === '1';
  if (refused.includes(status) && !withCounts) {
    return apiError(404, 'applicants_unavailable', `This KYC service does not offer the "${status}" filter (HTTP 400).`);
  }
  const skip = Number(url.searchParams.get('skip'));
  const limit = Number(url.searchParams.get('limit'));
  const matching = (filter: string) => (filter === 'all' || filter === '' ? applicants : applicants.filter((a) => a.status === filter));
  const own = refused.includes(status) ? [] : matching(status);
  const data = { records: own.slice(skip, skip + limit), total: own.length, skip, limit, ...options.extra?.[status || 'all'] };
  if (!withCounts) return json({ status: 'success', data });
  const tabs = ['all', ...APPLICANT_FILTERS];
  const missing = [...refused, ...(options.unavailable ?? [])];
  const countOf = (tab: string) =>
    missing.includes(tab) ? 'unavailable' : options.unread?.includes(tab) ? 'unread' : matching(tab).length;
  const counts = Object.fromEntries(tabs.map((tab) => [tab, countOf(tab)]));
  const overSlaByTab = Object.fromEntries(
    tabs.flatMap((tab) => (options.extra?.[tab]?.overSla === undefined ? [] : [[tab, options.extra[tab].overSla]])),
  );
  const refusedFilters = APPLICANT_FILTERS.filter((filter) => refused.includes(filter));
  const overSlaPartialTabs = tabs.filter((tab) => options.extra?.[tab]?.overSlaPartial === true);
  return json({ status: 'success', data: { ...data, counts, overSlaByTab, overSlaPartialTabs, refused: refusedFilters } });
}

export function envelope(record: CandidateRecord): Response {
  return json({ status: 'success', data: record });
}

export function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers = {}) {
  return json({ status: 'error', error: { code, message, ...extra } }, status, headers);
}

/**
 * The page's one status message (a notice of the search box, a loading line): every status region but
 * the header's live-updates indicator, which is a status region on every signed-in page.
 */
export function pageStatus(): HTMLElement {
  const found = screen.getAllByRole('status').filter((element) => element.dataset.testid !== 'live-indicator');
  if (found.length !== 1) throw new Error(`Expected one status message besides the live indicator, found ${found.length}.`);
  return found[0]!;
}
