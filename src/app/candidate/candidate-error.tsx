import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { API_ERRORS } from '../../kyc/contract/api-errors.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { candidatePath } from '../routes.ts';
import { STORE_UNAVAILABLE_TEXT } from '../session/store-unavailable.tsx';
import { sessionQueries } from '../session/session-query.ts';
import { Button, buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import { TimeStamp } from '../ui/time-stamp.tsx';
import type { LookupError } from './lookup-error.ts';

const OTHER_KIND: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

type ErrorScreen = { title: string; body: ReactNode; action?: ReactNode };

/** Failures of the page's environment itself: "New lookup" cannot stay in it. */
const LEAVE_ENVIRONMENT: ReadonlySet<LookupError['kind']> = new Set(['no_such_environment', 'environment_forbidden']);

/** What the reviewer can do about a failure, built once and offered where it helps. */
type Actions = { retry: ReactNode; signInAgain: ReactNode; tryOtherKind: ReactNode };

function retryText({ retryAfterSeconds, retryAt }: LookupError['details']): ReactNode {
  if (retryAfterSeconds === undefined) return 'Too many lookups in a short time. Wait a minute, then try again.';
  return (
    <>
      Too many lookups in a short time. Try again in {retryAfterSeconds} s
      {retryAt && (
        <>
          {' '}
          (at <TimeStamp date={retryAt} seconds />)
        </>
      )}
      .
    </>
  );
}

/** Failures whose screen is the contract's title for the code, the server's message and a retry. */
const TITLE_AND_RETRY = [
  'audit_unavailable',
  'archiving_check_unavailable',
  'server_busy',
  'upstream_unreachable',
  'upstream_timeout',
  'upstream_error',
  'internal_error',
] as const satisfies readonly LookupError['kind'][];

function isTitleAndRetry(kind: LookupError['kind']): kind is (typeof TITLE_AND_RETRY)[number] {
  return (TITLE_AND_RETRY as readonly string[]).includes(kind);
}

/** A screen for every kind: a kind without one is a compile error (the `never` below). */
function errorScreen(error: LookupError, kind: LookupKind, id: string, actions: Actions): ErrorScreen {
  const { message } = error;
  const errorKind = error.kind;
  if (isTitleAndRetry(errorKind)) return { title: API_ERRORS[errorKind].title, body: message, action: actions.retry };
  switch (errorKind) {
    case 'not_found':
      return {
        title: `No candidate with ${kind} "${id}"`,
        body: `The KYC service has no candidate with this ${kind}. Check the id, or look it up as a ${OTHER_KIND[kind]}.`,
        action: actions.tryOtherKind,
      };
    case 'invalid_id':
      return { title: 'This id cannot be looked up', body: message };
    case 'unauthenticated':
      return { title: 'Your session has ended', body: 'Sign in again to look this candidate up.', action: actions.signInAgain };
    case 'rate_limited':
      return {
        title: 'Too many lookups',
        body: `${message} The limit protects the KYC service and keeps lookups accountable.`,
        action: actions.retry,
      };
    case 'store_unavailable':
      return { title: 'Sign-in and lookups are paused', body: STORE_UNAVAILABLE_TEXT, action: actions.retry };
    case 'upstream_unauthorized':
      return {
        title: "The KYC service rejected this server's API key",
        body: `${message} Nothing is wrong with the id you entered; ask whoever runs Candidate Lookup.`,
      };
    case 'upstream_rate_limited':
      return { title: 'The KYC service is limiting requests', body: retryText(error.details), action: actions.retry };
    case 'server_unreachable':
      return { title: 'The Candidate Lookup server cannot be reached', body: message, action: actions.retry };
    case 'interrupted':
      return { title: 'The download broke off', body: message, action: actions.retry };
    case 'response_too_large':
      return { title: 'The response is too large', body: message };
    case 'not_json':
      return { title: 'The response is not readable', body: message };
    case 'not_a_record':
      return { title: 'The answer is not a readable record', body: message };
    case 'malformed':
      return { title: 'The response has an unexpected shape', body: <WhatWasWrong message={message} detail={error.details.detail} /> };
    case 'archiving_key':
      return { title: 'Full lookups are refused: this API key deletes identity data', body: message };
    // The applicants list's answer, which a lookup never gets; said plainly all the same.
    case 'applicants_unavailable':
      return { title: 'The KYC service does not offer this', body: message };
    // A link from another configuration, or someone else's: nothing is known of the candidate here.
    case 'no_such_environment':
      return {
        title: 'This environment does not exist here',
        body: `${message} The link may come from an older configuration of this server; nothing was looked up.`,
      };
    case 'environment_forbidden':
      return {
        title: 'Your account may not use this environment',
        body: `${message} Nothing was looked up. Ask an administrator for access, or look the candidate up in an environment you may use.`,
      };
    default:
      return unhandled(errorKind);
  }
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

function unhandled(kind: never): never {
  throw new Error(`No screen for the lookup error kind ${String(kind)}`);
}

/** A specific explanation for each way a lookup can fail, with the action that can help. */
export function CandidateError({
  error,
  kind,
  id,
  onRetry,
  retrying,
}: {
  error: LookupError;
  kind: LookupKind;
  id: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  const queryClient = useQueryClient();
  // Both links stay in the environment of the page: another one may be another company's service. One
  // that cannot be used here is left for the home page of the default one.
  const environment = useEnvironmentPath();
  const to = LEAVE_ENVIRONMENT.has(error.kind) ? (page: string) => page : environment.to;
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
    <Card role="alert" tone="danger" className="space-y-3" data-error-kind={error.kind}>
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
