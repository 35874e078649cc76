import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, use, useEffect } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { ApplicantsPage } from './applicants/applicants-page.tsx';
import { QUEUE_PATH } from './applicants/queue-location.ts';
import { CandidateSkeleton } from './candidate/candidate-skeleton.tsx';
import { loadCandidatePage, loadedCandidatePage } from './candidate/page-load.ts';
import { AppShell } from './layout/app-shell.tsx';
import { NotFoundPage } from './layout/not-found-page.tsx';
import { HomePage } from './lookup/home-page.tsx';
import { splitEnvironmentPath } from './routes.ts';
import { PageErrorBoundary } from './ui/page-error-boundary.tsx';

// The candidate page and what only it needs are not part of the first load (page-load.ts). The element
// tree is the same whether the module was loaded already or is waited for.
function CandidateEntry() {
  const module = loadedCandidatePage() ?? use(loadCandidatePage());
  return <module.CandidatePage />;
}

// The batch page is for some agents some of the time: fetched when opened, not with the first load.
const BatchPage = lazy(() => import('./batch/batch-page.tsx').then((m) => ({ default: m.BatchPage })));

function usePreload(load: () => Promise<unknown>) {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => void load().catch(() => {}));
    return () => cancel(handle);
  }, [load]);
}

/**
 * Four pages, chosen from the raw pathname. Not React Router's matcher: it matches decoded paths, so an
 * id with an encoded "/" or line break would not reach the candidate page that explains it.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  // `/e/<environment>/…` is the same page in another environment.
  const { path } = splitEnvironmentPath(pathname);
  usePreload(loadCandidatePage);
  return (
    <AppShell>
      <PageErrorBoundary key={pathname}>
        {path === '/' ? (
          <HomePage />
        ) : path === QUEUE_PATH ? (
          <ApplicantsPage />
        ) : path === '/batch' ? (
          <Suspense fallback={<p className="text-sm text-slate-600">Loading the batch page…</p>}>
            <BatchPage />
          </Suspense>
        ) : path.startsWith('/candidates/') ? (
          <Suspense fallback={<CandidateSkeleton />}>
            <CandidateEntry />
          </Suspense>
        ) : (
          <NotFoundPage />
        )}
      </PageErrorBoundary>
    </AppShell>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
