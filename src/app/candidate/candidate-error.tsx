import { useQueryClient } from '@tanstack/react-query';
import { type ComponentProps, useId } from 'react';
import { Link } from '../navigation.tsx';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { cleanId } from '../../kyc/view/id-input.ts';
import { invisibleIn, withoutMarks } from './id-marks.ts';
import {
  type Actions,
  type ErrorScreen,
  notFoundScreen,
  OTHER_KIND,
  type ScreenContext,
  type ScreenOf,
  type ScreenParts,
} from './not-found-screen.ts';
import { otherCandidateScreen } from './other-candidate.tsx';
import { ProblemCard } from './problem-card.tsx';
import { RetryButton, retryText, SaidWait, ServerWait } from './retry-wait.tsx';
import { type ApiError, codeOfStatus, type ErrorCode } from '../api/api-error.ts';
import { errorTitle } from '../api/error-titles.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { candidatePath } from '../routes.ts';
import { STORE_UNAVAILABLE_TEXT } from '../session/store-unavailable.tsx';
import { sessionQueries } from '../session/session-query.ts';
import { Button, buttonClass } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { ScrollRegion } from '../ui/scroll-region.tsx';

/** Failures of the page's environment itself: "New lookup" cannot stay in it. */
const LEAVE_ENVIRONMENT: ReadonlySet<ErrorCode> = new Set(['no_such_environment', 'environment_forbidden']);

const invalidId: ScreenOf = ({ message }) => ({ title: errorTitle('invalid_id'), body: message });
const unauthenticated: ScreenOf = (_, { actions }) => ({ body: 'Sign in again to look this candidate up.', action: actions.signInAgain });

/** What to do about an answer of the service's that could not be used: its message says what was wrong with it. */
const UPSTREAM_ERROR_NEXT =
  'Nothing of it is shown. This usually passes: try again in a moment. If it keeps happening, tell whoever runs Candidate Lookup.';
const IF_IT_KEEPS = 'If it keeps happening, tell whoever runs Candidate Lookup.';

/**
 * An error status of the service's (`upstreamStatus`), whose reason the message quotes when it gave one.
 * A 4xx is its refusal of the request as asked: asking the same again gets the same answer, so the page
 * says what to check instead of "try again". A 502, 503 or 504 that said when to try again: when.
 */
function upstreamError(error: ApiError, { actions, waitId }: ScreenContext): ScreenParts {
  const { message, upstreamStatus, retryAfterSeconds } = error;
  if (upstreamStatus === undefined) return { body: `${message} ${UPSTREAM_ERROR_NEXT}`, action: actions.retry };
  if (upstreamStatus >= 400 && upstreamStatus < 500) {
    return {
      body: `${message} Trying again will not change this answer: the KYC service refused the request itself. Check the id; if it is right, tell whoever runs Candidate Lookup what the service said.`,
    };
  }
  if (retryAfterSeconds === undefined)
    return { body: `${message} This usually passes: try again in a moment. ${IF_IT_KEEPS}`, action: actions.retry };
  const countdown = <SaidWait error={error} over="The wait the KYC service asked for is over: try again." id={waitId} />;
  return {
    body: (
      <>
        {message} {countdown} {IF_IT_KEEPS}
      </>
    ),
    action: actions.retry,
  };
}

/** What to do when the KYC service is away or slow: nothing about the id, usually passing. */
export const SERVICE_AWAY_NEXT =
  'Nothing is wrong with the id you entered: this is between Candidate Lookup and the KYC service, and usually passes within minutes. Try again shortly; if it lasts, tell whoever runs Candidate Lookup.';

/** The server's message under its code's title, with a retry when trying again can help, or without. */
const retryable: ScreenOf = ({ message }, { actions }) => ({ body: message, action: actions.retry });
/** What the countdowns say once the wait they count is over. */
const WAIT_OVER = 'The wait is over: try again.';
/**
 * Held back here for a moment (the key check under way, this server busy): the server's message, then the
 * wait it named (`Retry-After`) counted down, for Try again is held until it ends (RetryButton) and is
 * described by it. Before, the button was held with nothing on the page saying for how long.
 */
const heldForAWait: ScreenOf = (error, { actions, waitId }) => ({
  body: (
    <>
      {error.message} <SaidWait error={error} over={WAIT_OVER} id={waitId} />
    </>
  ),
  action: actions.retry,
});
/** The service away or slow: the title says that much, so the body says whose it is and what to do. */
const serviceAway: ScreenOf = ({ message }, { actions }) => ({ body: `${message} ${SERVICE_AWAY_NEXT}`, action: actions.retry });
const plain: ScreenOf = ({ message }) => ({ body: message });
/**
 * An answer of the service's that is no record (`not_a_record`: encrypted, a list, a web page, another
 * shape): asked again, the service gives the same one until it or this server's settings change, so no
 * Try again is offered (it was, and gave the same answer). The message names what an administrator must
 * check; New lookup stays.
 */
const notARecord: ScreenOf = ({ message }) => ({
  body: `${message} Trying again will not change this while the KYC service answers so: an administrator must act on it, with the words above. Nothing is wrong with the id you entered.`,
});
/** The server's settings for the service are wrong: no id would do. */
const notTheId: ScreenOf = ({ message }) => ({
  body: `${message} Nothing is wrong with the id you entered; tell whoever runs Candidate Lookup.`,
});

/**
 * A screen for each way a lookup fails. A code without one (a code of the contract that no lookup
 * answers with, or one added later) is shown with the screen of its HTTP status (screenOf), and failing
 * that with a plain one that says what the server said.
 */
const SCREENS: Partial<Record<ErrorCode, ScreenOf>> = {
  not_found: (_, context) => notFoundScreen(context),
  invalid_id: invalidId,
  // The request's shape, which for a lookup is its id: titled as an invalid id.
  bad_request: invalidId,
  unauthenticated,
  // This server's limit on the reviewer's lookups: its "Try again in 46 s." counted down, Try again held until then.
  rate_limited: (error, { actions, waitId }) => ({
    body: (
      <>
        <ServerWait error={error} id={waitId} over="The wait is over: Try again looks the candidate up again." /> The limit protects the KYC
        service and keeps lookups accountable.
      </>
    ),
    action: actions.retry,
  }),
  audit_unavailable: retryable,
  store_unavailable: (_, { actions }) => ({ body: STORE_UNAVAILABLE_TEXT, action: actions.retry }),
  archiving_check_unavailable: heldForAWait,
  upstream_unauthorized: notTheId,
  upstream_misconfigured: notTheId,
  // The base URL moved: no id would do, and trying again gets the same redirect.
  upstream_redirected: notTheId,
  upstream_no_content: retryable,
  upstream_rate_limited: (error, { actions, waitId }) => ({ body: retryText(error, waitId), action: actions.retry }),
  upstream_unreachable: serviceAway,
  upstream_timeout: serviceAway,
  server_unreachable: retryable,
  interrupted: retryable,
  server_busy: heldForAWait,
  internal_error: retryable,
  // An error of the service's, or an answer that broke off or stopped being JSON.
  upstream_error: upstreamError,
  response_too_large: plain,
  // What answered may have been a gateway's page or a service between deploys: worth one more try.
  not_json: retryable,
  not_a_record: notARecord,
  other_candidate: (error, { kind, id, actions }) => otherCandidateScreen(error, kind, id, actions.retry),
  malformed: ({ message, detail }, { actions }) => ({ body: <WhatWasWrong message={message} detail={detail} />, action: actions.retry }),
  archiving_key: plain,
  // The applicants list's answer, which a lookup never gets; said plainly all the same.
  applicants_unavailable: plain,
  // A link from another configuration, or someone else's: nothing is known of the candidate here.
  no_such_environment: ({ message }) => ({
    body: `${message} The link may come from an older configuration of this server; nothing was looked up.`,
  }),
  environment_forbidden: ({ message }) => ({
    body: `${message} Nothing was looked up. Ask an administrator for access, or look the candidate up in an environment you may use.`,
  }),
};

/** The code whose screen a failure gets: its own, or the one its HTTP status most likely means. */
export function screenCodeOf(error: ApiError): ErrorCode | undefined {
  if (SCREENS[error.code]) return error.code;
  const byStatus = error.status === undefined ? undefined : codeOfStatus(error.status);
  return byStatus && SCREENS[byStatus] ? byStatus : undefined;
}

function errorScreen(error: ApiError, context: ScreenContext): ErrorScreen {
  const { actions } = context;
  const code = screenCodeOf(error);
  if (code) {
    const screen = SCREENS[code]!(error, context);
    return { ...screen, title: screen.title ?? errorTitle(code) };
  }
  // A failure nobody foresaw: what the server said, and a retry when the server, not the request, failed.
  const retry = error.status === undefined || error.status >= 500 || error.status === 429;
  return { title: 'The lookup failed', body: error.message, action: retry ? actions.retry : undefined };
}

/** A link that does what a button would: a button's look, and a finger's height on a phone (data-touch, styles.css). */
function ActionLink(props: Omit<ComponentProps<typeof Link>, 'className'>) {
  return <Link {...props} className={cn(buttonClass(), 'inline-flex items-center')} data-touch />;
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
  bothKinds = false,
}: {
  error: ApiError;
  kind: LookupKind;
  id: string;
  onRetry: () => void;
  retrying: boolean;
  /** The id was looked up as the other kind just before this one (the history entry says so). */
  bothKinds?: boolean;
}) {
  const queryClient = useQueryClient();
  // Both links stay in the environment of the page: another one may be another company's service. One
  // that cannot be used here is left for the home page of the default one.
  const environment = useEnvironmentPath();
  const to = LEAVE_ENVIRONMENT.has(error.code) ? (page: string) => page : environment.to;
  const marked = withoutMarks(id);
  const waitId = useId();
  const actions: Actions = {
    retry: <RetryButton onRetry={onRetry} retrying={retrying} retryAt={error.retryAt} describedBy={waitId} />,
    signInAgain: (
      <Button onClick={() => void queryClient.invalidateQueries({ queryKey: sessionQueries.all() })} className="inline-flex items-center">
        Sign in again
      </Button>
    ),
    withoutInvisible: (
      <ActionLink to={to(candidatePath(kind, cleanId(id).id))} state={{ cleaned: invisibleIn(id) }}>
        Look up {kind} {cleanId(id).id}
      </ActionLink>
    ),
    withoutMarks: marked && (
      <ActionLink to={to(candidatePath(kind, marked.id))} state={{ cleaned: marked.marks }}>
        Look up {kind} {marked.id}
      </ActionLink>
    ),
    inLowerCase: <ActionLink to={to(candidatePath('recordId', id.toLowerCase()))}>Look up recordId {id.toLowerCase()}</ActionLink>,
    // This kind was tried: the other is looked up once, and never retried as this one by itself.
    tryOtherKind: (
      <ActionLink to={to(candidatePath(OTHER_KIND[kind], id))} state={{ triedOtherKind: true }}>
        Try as {OTHER_KIND[kind]}
      </ActionLink>
    ),
  };
  const screen = errorScreen(error, { kind, id, bothKinds, actions, waitId });

  return <ProblemCard {...screen} home={to('/')} kind={screenCodeOf(error) ?? error.code} />;
}
