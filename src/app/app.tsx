import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { BrowserRouter, useLocation } from 'react-router';
import { CandidateSkeleton } from './candidate/candidate-skeleton.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { NotFoundPage } from './layout/not-found-page.tsx';
import { HomePage } from './lookup/home-page.tsx';

// The candidate page and what only it needs load when a candidate is first opened.
const CandidatePage = lazy(() => import('./candidate/candidate-page.tsx').then((m) => ({ default: m.CandidatePage })));

/**
 * Three pages, chosen from the raw pathname. Not React Router's matcher: it matches decoded paths, so an
 * id with an encoded "/" or line break would not reach the candidate page that explains it.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <AppShell>
      {pathname === '/' ? (
        <HomePage />
      ) : pathname.startsWith('/candidates/') ? (
        <Suspense fallback={<CandidateSkeleton />}>
          <CandidatePage />
        </Suspense>
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
