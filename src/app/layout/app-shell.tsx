import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Link, navigate, ScrollToTopOnOpen, useLocation } from '../navigation.tsx';
import type { ApiMeta, SessionInfo } from '../../kyc/contract/api.ts';
import { ApiError } from '../api/api-error.ts';
import { EnvironmentBadge, EnvironmentSwitcher, environmentEdgeClass, toneOf } from '../environment/environment-badge.tsx';
import { useEnvironment } from '../environment/use-environment.ts';
import { LookupForm } from '../lookup/lookup-form.tsx';
import { useFocusRescue } from './focus-rescue.ts';
import {
  foldOf,
  MENU_PANEL,
  MenuSummary,
  PanelButton,
  SEARCH_PANEL,
  toggleClass,
  useHeaderPanel,
  useMenuDismiss,
  usePanelOpeners,
} from './header-panels.tsx';
import { KeyboardHelp } from './keyboard-help-key.tsx';
import { metaQueries } from '../meta/meta-query.ts';
import { PrivacyMaskProvider, PrivacyMaskToggle } from '../preferences/privacy-mask.tsx';
import { TimeZoneProvider, TimeZoneToggle } from '../preferences/time-zone.tsx';
import { giveRecentLookupsTo } from '../recent/recent-lookups.ts';
import { useRecentFollowsLive } from '../recent/recent-live.ts';
import { useQueueFollowsLive } from '../applicants/queue-follows-live.ts';
import { APPLICANTS_KEY } from '../applicants/queue-key.ts';
import { AUDIT_PATH, BATCH_PATH, parseCandidatePath, QUEUE_PATH, signInRefusalOf } from '../routes.ts';
import { readsAuditTrail } from '../../kyc/contract/roles.ts';
import { SessionBadge } from '../session/session-badge.tsx';
import { sessionQueries } from '../session/session-query.ts';
import { usePageHeld, useSessionWatch } from '../session/session-end.ts';
import { SessionRetryNotice, SessionUnreachable, useSessionRetry } from '../session/session-retry.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { lazyNamed } from '../ui/lazy-named.ts';
import { LiveIndicator, NotificationsMenu } from '../live/live-header.tsx';
import { useLiveResync, useLiveStream } from '../live/live-stream.ts';

// What stands before the pages is seen once a session, if at all: not part of the first load.
const SignInPage = lazyNamed(() => import('../session/sign-in-page.tsx'), 'SignInPage');
const OidcSignInPage = lazyNamed(() => import('../session/oidc-sign-in.tsx'), 'OidcSignInPage');
const SignInRefusedPage = lazyNamed(() => import('../session/oidc-sign-in.tsx'), 'SignInRefusedPage');
const StoreUnavailable = lazyNamed(() => import('../session/store-unavailable.tsx'), 'StoreUnavailable');

/** The header's page links, in the environment of the page shown; the audit page for leads only. */
const PAGES = [
  [QUEUE_PATH, 'Applicants', ''],
  // "Batch" on screen, its name whole for screen readers and voice control.
  [BATCH_PATH, 'Batch', ' lookup'],
] as const;
const LEAD_PAGES = [...PAGES, [AUDIT_PATH, 'Audit', '']] as const;

/**
 * The header and the page share one width: 90rem (1440 px) at most, so that at 1440 px the header keeps
 * to one row (issue 33) and the candidate page's pictures and certificates get the room.
 */
const PAGE_WIDTH = 'max-w-[90rem]';

/** Every page: the header, then the page or what stands before it (sign-in, a refusal, a paused store). */
export function AppShell({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQueries.current());
  const signedIn = isSignedIn(session.data);
  const environment = useEnvironment({ enabled: signedIn });
  const { path, meta } = environment;
  const { pathname } = useLocation();
  useAllowedEnvironment(meta, path);
  const user = signedIn ? (session.data?.user ?? 'local') : undefined;
  useSessionWatch(session.data);
  useSessionRetry(session);
  const held = usePageHeld();
  useEffect(() => {
    if (user !== undefined) giveRecentLookupsTo(user);
  }, [user]);
  const maskDefault = useMaskDefault(environment.environment, signedIn);
  // One stream per tab while someone is signed in: the service's events where an environment has live
  // updates, and everywhere who else has a candidate open (presence, issue 33).
  useLiveStream(signedIn);
  const queryClient = useQueryClient();
  // The stream missed events: the queue is read again (from the index: no lookup), and each open candidate
  // page re-checks its status at status level (live-status.tsx), never a full record nor an audit search.
  useLiveResync(() => void queryClient.invalidateQueries({ queryKey: APPLICANTS_KEY }));
  useRecentFollowsLive();
  useQueueFollowsLive();
  useFocusRescue();
  return (
    <TimeZoneProvider>
      <PrivacyMaskProvider defaultOn={maskDefault}>
        <div className="min-h-screen bg-slate-100 text-slate-900 print:min-h-0 print:bg-white">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
          >
            Skip to content
          </a>
          <ScrollToTopOnOpen />
          <AppHeader session={session.data} signedIn={signedIn} environment={environment} />
          <KeyboardHelp signedIn={signedIn} />
          <main id="main" className={`mx-auto ${PAGE_WIDTH} px-4 py-6 sm:px-6 print:max-w-none print:p-0`}>
            <SessionRetryNotice session={session} />
            <Suspense fallback={null}>
              <MainContent session={session} meta={meta} refusal={signInRefusalOf(path)} returnTo={pathname} held={held}>
                {children}
              </MainContent>
            </Suspense>
          </main>
        </div>
      </PrivacyMaskProvider>
    </TimeZoneProvider>
  );
}

/**
 * Whether values start masked, as the server says. Until it has said, mask: unmasking late is harmless,
 * the reverse is not. What it said holds when asking again fails (the query keeps its data in error);
 * if it never could say, the values stay masked and the reviewer can switch the mask off.
 */
function useMaskDefault(environment: string | undefined, signedIn: boolean): boolean | undefined {
  const { data } = useQuery({ ...metaQueries.current(environment), enabled: signedIn });
  return data ? (data.privacyMaskDefault ?? false) : undefined;
}

/**
 * The product, the environment, the page links, (away from home) a lookup form, the view toggles and the
 * user. On a phone (below `sm`) the form and the toggles fold behind two buttons, so the header keeps to
 * one or two rows: a quarter of the screen at most; from `sm` to `xl` the toggles and the user fold behind
 * Menu (header-panels.tsx), so that from 1024 px the header is one row for every role.
 */
function AppHeader({
  session,
  signedIn,
  environment: { path, to, meta },
}: {
  session: SessionInfo | undefined;
  signedIn: boolean;
  environment: ReturnType<typeof useEnvironment>;
}) {
  const route = parseCandidatePath(path);
  // The page's kind, also after the automatic fallback from refId to recordId: said refId there, Enter on the page's
  // id looked it up as a refId again, known to find no one (two audited lookups). An id typed is read by its form anyway.
  const current = route?.id !== undefined ? { kind: route.kind, id: route.id } : undefined;
  const [panel, setPanel] = useHeaderPanel(path);
  const searchable = signedIn && path !== '/';
  useMenuDismiss(panel === 'menu', setPanel);
  const fold = foldOf((meta?.environments.length ?? 0) > 1);
  const opener = usePanelOpeners(panel, setPanel);
  return (
    <header
      data-environment-tone={meta ? toneOf(meta.environment) : undefined}
      className={cn('border-b border-slate-200 bg-white print:hidden', environmentEdgeClass(meta?.environment))}
    >
      {/* On one baseline, not centred: a question or a problem under the search box grows the header down, where
          centred items (the mark, the links, the toggles) slid down to its middle. The mark is inline for a baseline. */}
      <div
        className={`relative mx-auto flex ${PAGE_WIDTH} flex-wrap items-baseline gap-x-3 gap-y-2 2xl:gap-x-4 px-4 py-2 sm:gap-y-3 sm:px-6 sm:py-3`}
      >
        <Link to={to('/')} className="rounded font-semibold text-slate-900 focus-ring">
          <img src="/favicon.svg" alt="" className="inline-block size-6" />
          {/* The mark alone (the name is its link's, and the tab's title's): the row is 90rem wide at most, and a lead's
              links, name and role beside the search box took it all (its name wrapped the row to two from 1536 px). */}
          <span className="sr-only">Candidate Lookup</span>
        </Link>
        {meta && <EnvironmentBadge info={meta.environment} />}
        {session && (
          <div className="ml-auto flex items-center gap-2 sm:hidden">
            {searchable && (
              <PanelButton open={panel === 'search'} controls={SEARCH_PANEL} onClick={opener.openSearch}>
                Search
              </PanelButton>
            )}
            {/* Before the page links, what it opens after them: it opens with focus on its first item (header-panels.tsx). */}
            <PanelButton open={panel === 'menu'} controls={MENU_PANEL} onClick={opener.openMenuInto}>
              Menu
              <MenuSummary />
            </PanelButton>
          </div>
        )}
        {signedIn && (
          <nav aria-label="Main" className="flex items-center gap-3 2xl:gap-4">
            {(readsAuditTrail(session?.role) ? LEAD_PAGES : PAGES).map(([page, label, more]) => (
              <Link
                key={page}
                to={to(page)}
                aria-current={path === page ? 'page' : undefined}
                data-touch
                className="rounded px-1 text-sm font-medium text-slate-700 underline-offset-4 hover:text-slate-900 hover:underline focus-ring aria-[current=page]:text-blue-800 aria-[current=page]:underline"
              >
                {label}
                {more && <span className="sr-only">{more}</span>}
              </Link>
            ))}
          </nav>
        )}
        {searchable && (
          // The box gives up room before the row wraps (its basis, not its width, decides that): at 1280 px 26rem wrapped the
          // header to two rows when the live indicator said "Reconnecting…" in a deploy, and the page jumped 42 px down and back.
          <div id={SEARCH_PANEL} className={`${panel === 'search' ? '' : 'max-sm:hidden'} min-w-0 flex-1 basis-80`}>
            {/* A new form for each page shown: the box and the toggle follow it (after "Try as recordId", after Back). */}
            <LookupForm key={current ? `${current.kind}:${current.id}` : path} compact current={current} />
          </div>
        )}
        <div
          id={MENU_PANEL}
          className={`${panel === 'menu' ? 'flex' : 'max-sm:hidden'} w-full flex-wrap items-center gap-2 sm:ml-auto sm:flex sm:w-auto`}
        >
          {signedIn && meta && <LiveIndicator info={meta.environment} />}
          {/* Before what it opens, so that Tab from Menu goes on into it. */}
          {session && (
            <span className={fold.menu}>
              <PanelButton open={panel === 'menu'} controls={MENU_PANEL} onClick={opener.toggleMenu}>
                Menu
                <MenuSummary />
              </PanelButton>
            </span>
          )}
          {/* From sm to xl (with the environment switcher, at every width) the live indicator stays in the row and the rest opens
              under Menu, so that the row keeps to one line at 1024 px (a lead's three links, a long name and Sign out wrapped it to
              two, 105 px) and the search box its room; on a phone all of it does. */}
          <div className={cn('contents', panel === 'menu' ? fold.open : fold.closed)}>
            {meta && <EnvironmentSwitcher meta={meta} path={path} />}
            {signedIn && (
              <>
                <NotificationsMenu role={session?.role} defaultName={meta?.environments[0]?.name} className={toggleClass} />
                <TimeZoneToggle className={toggleClass} />
                <PrivacyMaskToggle className={toggleClass} />
              </>
            )}
            {session && <SessionBadge session={session} />}
          </div>
        </div>
      </div>
    </header>
  );
}

/** A user limited to other environments who opens the default one goes to the first they may use. */
function useAllowedEnvironment(meta: ApiMeta | undefined, path: string): void {
  const target = meta && !meta.allowed ? meta.environments[0]?.name : undefined;
  useEffect(() => {
    if (target) navigate(`/e/${encodeURIComponent(target)}${path === '/' ? '' : path}`, { replace: true });
  }, [target, path]);
}

/** The page once someone is signed in (and may use an environment); before that, what stands in the way. */
function MainContent({
  session,
  meta,
  refusal,
  returnTo,
  held,
  children,
}: {
  session: UseQueryResult<SessionInfo>;
  meta: ApiMeta | undefined;
  refusal: ReturnType<typeof signInRefusalOf>;
  returnTo: string;
  /** Work in progress holds the page when the session ends: it says so itself and offers a new sign-in (session-end.ts). */
  held: boolean;
  children: ReactNode;
}) {
  if (refusal) return <SignInRefusedPage reason={refusal} provider={session.data?.provider} />;
  if (session.isPending) return null;
  // A session already known stands while it cannot be checked (a restart): the page and its work stay (session-retry.tsx).
  if (session.isError && session.data === undefined) {
    if (session.error instanceof ApiError && session.error.code === 'store_unavailable') {
      return <StoreUnavailable onRetry={() => void session.refetch()} retrying={session.isFetching} />;
    }
    return <SessionUnreachable session={session} />;
  }
  if (!isSignedIn(session.data)) {
    if (held) return children;
    if (session.data.mode === 'users') return <SignInPage />;
    if (session.data.mode === 'oidc') return <OidcSignInPage provider={session.data.provider ?? 'your organisation'} returnTo={returnTo} />;
    return <Problem>The sign-in gateway in front of Candidate Lookup did not identify you. Sign in through it, then reload.</Problem>;
  }
  if (meta && !meta.allowed && meta.environments.length === 0) {
    return <Problem>Your account may not use any environment of this server. Ask whoever runs Candidate Lookup.</Problem>;
  }
  return children;
}

function Problem({ children }: { children: ReactNode }) {
  return (
    <Card as="p" role="alert" tone="danger">
      {children}
    </Card>
  );
}

function isSignedIn(session: SessionInfo | undefined): boolean {
  return session !== undefined && (session.mode === 'local' || session.user !== undefined);
}
