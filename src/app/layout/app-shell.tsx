import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { LookupForm } from '../lookup/lookup-form.tsx';
import { metaQuery } from '../meta/meta-query.ts';
import { SessionBadge } from '../session/session-badge.tsx';
import { OidcSignInPage, SignInRefusedPage, signInRefusalOf } from '../session/oidc-sign-in.tsx';
import { SessionError, sessionQuery } from '../session/session-query.ts';
import { SignInPage } from '../session/sign-in-page.tsx';
import { StoreUnavailable } from '../session/store-unavailable.tsx';

/** Header on every page: the product, the sandbox marker, and (away from home) a lookup form. */
export function AppShell({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery());
  const signedIn = session.data !== undefined && (session.data.mode === 'local' || session.data.user !== undefined);
  const meta = useQuery({ ...metaQuery(), enabled: signedIn });
  const { pathname } = useLocation();
  const home = pathname === '/';
  const refusal = signInRefusalOf(pathname);
  return (
    <div className="min-h-screen bg-slate-100 text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3 sm:px-6">
          <Link
            to="/"
            className="flex items-center gap-2 rounded font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <img src="/favicon.svg" alt="" className="size-6" />
            Candidate Lookup
          </Link>
          {meta.data?.upstream === 'sandbox' && (
            <span
              data-testid="sandbox-marker"
              title="Made-up sample candidates from the embedded sandbox upstream, not real people."
              className="rounded-full border border-amber-400 bg-amber-100 px-2.5 py-0.5 text-xs font-semibold tracking-wide text-amber-950 uppercase"
            >
              Sandbox data
            </span>
          )}
          {signedIn && (
            <nav aria-label="Main">
              <Link
                to="/applicants"
                aria-current={pathname === '/applicants' ? 'page' : undefined}
                className="rounded px-1 text-sm font-medium text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 aria-[current=page]:text-blue-800 aria-[current=page]:underline"
              >
                Applicants
              </Link>
            </nav>
          )}
          {signedIn && !home && (
            <div className="min-w-0 flex-1 basis-96">
              <LookupForm compact />
            </div>
          )}
          <div className="ml-auto">{session.data && <SessionBadge session={session.data} />}</div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        {refusal ? (
          <SignInRefusedPage reason={refusal} provider={session.data?.provider} />
        ) : session.isPending ? null : session.isError ? (
          session.error instanceof SessionError && session.error.code === 'store_unavailable' ? (
            <StoreUnavailable onRetry={() => void session.refetch()} retrying={session.isFetching} />
          ) : (
            <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-950">
              The Candidate Lookup server could not be reached: {session.error.message}
            </p>
          )
        ) : !signedIn ? (
          session.data?.mode === 'users' ? (
            <SignInPage />
          ) : session.data?.mode === 'oidc' ? (
            <OidcSignInPage provider={session.data.provider ?? 'your organisation'} returnTo={pathname} />
          ) : (
            <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-950">
              The sign-in gateway in front of Candidate Lookup did not identify you. Sign in through it, then reload.
            </p>
          )
        ) : (
          children
        )}
      </main>
    </div>
  );
}
