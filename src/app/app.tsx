import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { CandidateSkeleton } from './candidate/candidate-skeleton.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { NotFoundPage } from './layout/not-found-page.tsx';
import { HomePage } from './lookup/home-page.tsx';

// The candidate page and what only it needs are not part of the first load; they are fetched as soon as
// the browser is idle. Once loaded, the page renders directly: through React.lazy it would suspend once
// more, and React holds a revealed Suspense boundary back for up to 300 ms.
type CandidatePageModule = typeof import('./candidate/candidate-page.tsx');
let candidatePageModule: CandidatePageModule | undefined;
const loadCandidatePage = () => import('./candidate/candidate-page.tsx').then((m) => (candidatePageModule = m));
const LazyCandidatePage = lazy(() => loadCandidatePage().then((m) => ({ default: m.CandidatePage })));

function CandidatePageWhenLoaded() {
  if (candidatePageModule) return <candidatePageModule.CandidatePage />;
  return (
    <Suspense fallback={<CandidateSkeleton />}>
      <LazyCandidatePage />
    </Suspense>
  );
}

function usePreload(load: () => Promise<unknown>) {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => void load().catch(() => {}));
    return () => cancel(handle);
  }, [load]);
}

/**
 * Three pages, chosen from the raw pathname. Not React Router's matcher: it matches decoded paths, so an
 * id with an encoded "/" or line break would not reach the candidate page that explains it.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  usePreload(loadCandidatePage);
  return (
    <AppShell>
      {pathname === '/' ? (
        <HomePage />
      ) : pathname.startsWith('/candidates/') ? (
        <CandidatePageWhenLoaded />
      ) : (
        <NotFoundPage />
      )}
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
