import { render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PageErrorBoundary } from '../../src/app/ui/page-error-boundary.tsx';

describe('a part of a page whose chunk does not load', () => {
  it('shows its fallback in its place and keeps the rest of the page (the search box question, offline)', async () => {
    // React reports the caught error on the console: expected here, kept out of the test's output.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Question = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module: /assets/q.js')));
    render(
      <main>
        <p>The rest of the page</p>
        <PageErrorBoundary fallback={<p role="alert">Not looked up: the question about this text could not load.</p>}>
          <Suspense fallback={null}>
            <Question />
          </Suspense>
        </PageErrorBoundary>
      </main>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Not looked up: the question about this text could not load.');
    expect(screen.getByText('The rest of the page')).toBeInTheDocument();
    expect(screen.queryByText('This page could not be shown')).toBeNull();
    quiet.mockRestore();
  });

  it('without a fallback, still says the page could not be shown and offers a reload', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Part = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module: /assets/p.js')));
    render(
      <PageErrorBoundary>
        <Suspense fallback={null}>
          <Part />
        </Suspense>
      </PageErrorBoundary>,
    );
    expect(await screen.findByText('This page could not be shown')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    quiet.mockRestore();
  });
});
