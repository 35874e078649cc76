import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, Suspense, use, useEffect } from 'react';
import { BrowserHistory, useLocation } from './navigation.tsx';
import { LookupPlaceholder } from './candidate/lookup-placeholder.tsx';
import { loadCandidatePage, loadedCandidatePage } from './candidate/page-load.ts';
import { AppShell } from './layout/app-shell.tsx';
import { HomePage } from './lookup/home-page.tsx';
import { SANDBOX_DASHBOARD_PATH } from '../kyc/contract/api-paths.ts';
import { AUDIT_PATH, BATCH_PATH, CANDIDATES_PREFIX, HOME_PATH, QUEUE_PATH, splitEnvironmentPath } from './routes.ts';
import { lazyNamed } from './ui/lazy-named.ts';
import { PageErrorBoundary } from './ui/page-error-boundary.tsx';

// The candidate page and what only it needs are not part of the first load (page-load.ts). The element
// tree is the same whether the module was loaded already or is waited for.
function CandidateEntry() {
  const module = loadedCandidatePage() ?? use(loadCandidatePage());
  return <module.CandidatePage />;
}

const loading = (what: string) => <p className="text-sm text-slate-600">Loading the {what}…</p>;

interface PageRoute {
  match: (path: string) => boolean;
  Page: ComponentType;
  /** Shown while a page's module loads: every page but the home page is fetched when first opened. */
  fallback: ReactNode;
}

/**
 * The app's pages, matched against the raw pathname in order. Not a router library's matcher: those match
 * decoded paths, so an id with an encoded "/" or line break would not reach the candidate page that
 * explains it. What stands before a page (sign-in, a refusal) is the shell's (layout/app-shell.tsx).
 */
const ROUTES: readonly PageRoute[] = [
  { match: (path) => path === HOME_PATH, Page: HomePage, fallback: null },
  {
    match: (path) => path === QUEUE_PATH,
    Page: lazyNamed(() => import('./applicants/applicants-page.tsx'), 'ApplicantsPage'),
    fallback: loading('applicants'),
  },
  {
    match: (path) => path === BATCH_PATH,
    Page: lazyNamed(() => import('./batch/batch-page.tsx'), 'BatchPage'),
    fallback: loading('batch page'),
  },
  {
    match: (path) => path === AUDIT_PATH,
    Page: lazyNamed(() => import('./audit/audit-page.tsx'), 'AuditPage'),
    fallback: loading('audit trail'),
  },
  { match: (path) => path.startsWith(CANDIDATES_PREFIX), Page: CandidateEntry, fallback: <LookupPlaceholder /> },
  {
    match: (path) => path.startsWith(SANDBOX_DASHBOARD_PATH),
    Page: lazyNamed(() => import('./candidate/sandbox-dashboard-page.tsx'), 'SandboxDashboardPage'),
    fallback: null,
  },
];

const NOT_FOUND: PageRoute = {
  match: () => true,
  Page: lazyNamed(() => import('./layout/not-found-page.tsx'), 'NotFoundPage'),
  fallback: null,
};

function usePreload(load: () => Promise<unknown>) {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => void load().catch(() => {}));
    return () => cancel(handle);
  }, [load]);
}

export function AppRoutes() {
  const { pathname } = useLocation();
  // `/e/<environment>/…` is the same page in another environment.
  const { path } = splitEnvironmentPath(pathname);
  // The page most lookups lead to is fetched as soon as the browser is idle.
  usePreload(loadCandidatePage);
  const { Page, fallback } = ROUTES.find((route) => route.match(path)) ?? NOT_FOUND;
  return (
    <AppShell>
      <PageErrorBoundary key={pathname}>
        <Suspense fallback={fallback}>
          <Page />
        </Suspense>
      </PageErrorBoundary>
    </AppShell>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserHistory>
        <AppRoutes />
      </BrowserHistory>
    </QueryClientProvider>
  );
}
