import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { CandidatePage } from './candidate/candidate-page.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { HomePage } from './lookup/home-page.tsx';
import { NotFoundPage, UnmatchedPage } from './layout/not-found-page.tsx';

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    // React Router matches decoded paths: an id with an encoded line break matches no route at all.
    // Such links still get the candidate page, which explains why the id cannot be looked up.
    errorElement: (
      <AppShell>
        <UnmatchedPage />
      </AppShell>
    ),
    children: [
      { path: '/', element: <HomePage /> },
      // The id is read from the raw pathname (see routes.ts), not from route params.
      { path: '/candidates/*', element: <CandidatePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
