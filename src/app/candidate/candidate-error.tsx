import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from '../navigation.tsx';
import { API_ERRORS } from '../../kyc/contract/api-errors.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type ApiError, codeOfStatus, type ErrorCode } from '../api/api-error.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { candidatePath } from '../routes.ts';
import { STORE_UNAVAILABLE_TEXT } from '../session/store-unavailable.tsx';
import { sessionQueries } from '../session/session-query.ts';
import { Button, buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import { useNow } from '../ui/use-now.ts';

const OTHER_KIND: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

type ErrorScreen = { title: string; body: ReactNode; action?: ReactNode };

/** Failures of the page's environment itself: "New lookup" cannot stay in it. */
const LEAVE_ENVIRONMENT: ReadonlySet<ErrorCode> = new Set(['no_such_environment', 'environment_forbidden']);

/** What the reviewer can do about a failure, built once and offered where it helps. */
type Actions = { retry: ReactNode; signInAgain: ReactNode; tryOtherKind: ReactNode };

function retryText(error: ApiError): ReactNode {
  if (error.retryAfterSeconds === undefined) return 'Too many lookups in a short time. Wait a minute, then try again.';
  return <RetryCountdown seconds={error.retryAfterSeconds} retryAt={error.retryAt} />;
}

/**
 * The wait the service asked for, counted down each second: "Try again in 30 s (at 14:02:31)", then
 * that it is over. The screen is an alert: the count is not read out again each second (aria-live off).
 */
function RetryCountdown({ seconds, retryAt }: { seconds: number; retryAt: Date | undefined }) {
  const now = useNow(1000);
  const left = retryAt ? Math.ceil((retryAt.getTime() - now.getTime()) / 1000) : seconds;
  if (retryAt && left <= 0) return 'The wait the KYC service asked for is over: try again.';
  return (
    <span aria-live="off">
      Too many lookups in a short time. Try again in {left} s
      {retryAt && (
        <>
          {' '}
          (at <TimeStamp date={retryAt} seconds />)
        </>
      )}
      .
    </span>
  );
}

type ScreenOf = (error: ApiError, context: { kind: LookupKind; id: string; actions: Actions }) => ErrorScreen;

const invalidId: ScreenOf = ({ message }) => ({ title: 'This id cannot be looked up', body: message });
const unauthenticated: ScreenOf = (_, { actions }) => ({
  title: 'Your session has ended',
  body: 'Sign in again to look this candidate up.',
  action: actions.signInAgain,
});

/**
 * A screen for each way a lookup fails. A code without one (a code of the contract that no lookup
 * answers with, or one added later) is shown with the screen of its HTTP status (screenOf), and failing
 * that with a plain one that says what the server said.
 */
const SCREENS: Partial<Record<ErrorCode, ScreenOf>> = {
  not_found: (_, { kind, id, actions }) => ({
    title: `No candidate with ${kind} "${id}"`,
    body: `The KYC service has no candidate with this ${kind}. Check the id, or look it up as a ${OTHER_KIND[kind]}.`,
    action: actions.tryOtherKind,
  }),
  invalid_id: invalidId,
  // The request's shape, which for a lookup is its id.
  bad_request: invalidId,
  unauthenticated,
  rate_limited: ({ message }, { actions }) => ({
    title: 'Too many lookups',
    body: `${message} The limit protects the KYC service and keeps lookups accountable.`,
    action: actions.retry,
  }),
  audit_unavailable: ({ message }, { actions }) => ({ title: 'This lookup could not be recorded', body: message, action: actions.retry }),
  store_unavailable: (_, { actions }) => ({ title: 'Sign-in and lookups are paused', body: STORE_UNAVAILABLE_TEXT, action: actions.retry }),
  archiving_check_unavailable: ({ message }, { actions }) => ({
    title: 'Full lookups are held back: the API key check cannot be read',
    body: message,
    action: actions.retry,
  }),
  upstream_unauthorized: ({ message }) => ({
    title: "The KYC service rejected this server's API key",
    body: `${message} Nothing is wrong with the id you entered; ask whoever runs Candidate Lookup.`,
  }),
  upstream_rate_limited: (error, { actions }) => ({
    title: 'The KYC service is limiting requests',
    body: retryText(error),
    action: actions.retry,
  }),
  upstream_unreachable: ({ message }, { actions }) => ({
    title: 'The KYC service cannot be reached',
    body: message,
    action: actions.retry,
  }),
  upstream_timeout: ({ message }, { actions }) => ({
    title: 'The KYC service did not answer in time',
    body: message,
    action: actions.retry,
  }),
  server_unreachable: ({ message }, { actions }) => ({
    title: 'The Candidate Lookup server cannot be reached',
    body: message,
    action: actions.retry,
  }),
  interrupted: ({ message }, { actions }) => ({ title: 'The download broke off', body: message, action: actions.retry }),
  server_busy: ({ message }, { actions }) => ({ title: API_ERRORS.server_busy.title, body: message, action: actions.retry }),
  internal_error: ({ message }, { actions }) => ({ title: API_ERRORS.internal_error.title, body: message, action: actions.retry }),
  response_too_large: ({ message }) => ({ title: 'The response is too large', body: message }),
  upstream_error: ({ message }, { actions }) => ({ title: 'The KYC service answered with an error', body: message, action: actions.retry }),
  not_json: ({ message }) => ({ title: 'The response is not readable', body: message }),
  not_a_record: ({ message }) => ({ title: 'The answer is not a readable record', body: message }),
  malformed: ({ message, detail }) => ({
    title: 'The response has an unexpected shape',
    body: <WhatWasWrong message={message} detail={detail} />,
  }),
  archiving_key: ({ message }) => ({ title: 'Full lookups are refused: this API key deletes identity data', body: message }),
  // The applicants list's answer, which a lookup never gets; said plainly all the same.
  applicants_unavailable: ({ message }) => ({ title: 'The KYC service does not offer this', body: message }),
  // A link from another configuration, or someone else's: nothing is known of the candidate here.
  no_such_environment: ({ message }) => ({
    title: 'This environment does not exist here',
    body: `${message} The link may come from an older configuration of this server; nothing was looked up.`,
  }),
  environment_forbidden: ({ message }) => ({
    title: 'Your account may not use this environment',
    body: `${message} Nothing was looked up. Ask an administrator for access, or look the candidate up in an environment you may use.`,
  }),
};

/** The code whose screen a failure gets: its own, or the one its HTTP status most likely means. */
export function screenCodeOf(error: ApiError): ErrorCode | undefined {
  if (SCREENS[error.code]) return error.code;
  const byStatus = error.status === undefined ? undefined : codeOfStatus(error.status);
  return byStatus && SCREENS[byStatus] ? byStatus : undefined;
}

function errorScreen(error: ApiError, kind: LookupKind, id: string, actions: Actions): ErrorScreen {
  const code = screenCodeOf(error);
  if (code) return SCREENS[code]!(error, { kind, id, actions });
  // A failure nobody foresaw: what the server said, and a retry when the server, not the request, failed.
  const retry = error.status === undefined || error.status >= 500 || error.status === 429;
  return { title: 'The lookup failed', body: error.message, action: retry ? actions.retry : undefined };
}

function WhatWasWrong({ message, detail }: { message: string; detail: string | undefined }) {
  return (
    <>
      {message} What was wrong:
      <ScrollRegion label="What was wrong" className="mt-2 max-h-64 rounded bg-white/70 p-2 text-xs">
        <pre className="break-all whitespace-pre-wrap">{detail}</pre>
      </ScrollRegion>
    </>
  );
}

/** A specific explanation for each way a lookup can fail, with the action that can help. */
export function CandidateError({
  error,
  kind,
  id,
  onRetry,
  retrying,
}: {
  error: ApiError;
  kind: LookupKind;
  id: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  const queryClient = useQueryClient();
  // Both links stay in the environment of the page: another one may be another company's service. One
  // that cannot be used here is left for the home page of the default one.
  const environment = useEnvironmentPath();
  const to = LEAVE_ENVIRONMENT.has(error.code) ? (page: string) => page : environment.to;
  const screen = errorScreen(error, kind, id, {
    retry: (
      <Button onClick={onRetry} disabled={retrying} className="inline-flex items-center">
        {retrying ? 'Retrying…' : 'Try again'}
      </Button>
    ),
    signInAgain: (
      <Button onClick={() => void queryClient.invalidateQueries({ queryKey: sessionQueries.all() })} className="inline-flex items-center">
        Sign in again
      </Button>
    ),
    tryOtherKind: (
      <Link className={cn(buttonClass(), 'inline-flex items-center')} to={to(candidatePath(OTHER_KIND[kind], id))}>
        Try as {OTHER_KIND[kind]}
      </Link>
    ),
  });

  return (
    <Card role="alert" tone="danger" className="space-y-3" data-error-kind={screenCodeOf(error) ?? error.code}>
      <h1 className="text-xl font-semibold break-words">{screen.title}</h1>
      <div className="text-sm break-words">{screen.body}</div>
      <div className="flex flex-wrap gap-3">
        {screen.action}
        <Link
          to={to('/')}
          className="inline-flex items-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-900 hover:bg-red-100 focus-ring"
        >
          New lookup
        </Link>
      </div>
    </Card>
  );
}
