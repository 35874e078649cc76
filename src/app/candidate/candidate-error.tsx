import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { candidatePath } from '../routes.ts';
import { STORE_UNAVAILABLE_TEXT } from '../session/store-unavailable.tsx';
import type { LookupError } from './lookup-error.ts';

const OTHER_KIND: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

const buttonClass =
  'inline-flex items-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

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
  const retry = (
    <button type="button" className={buttonClass} onClick={onRetry} disabled={retrying}>
      {retrying ? 'Retrying…' : 'Try again'}
    </button>
  );
  const view = ((): { title: string; body: ReactNode; action?: ReactNode } => {
    switch (error.kind) {
      case 'not_found':
        return {
          title: `No candidate with ${kind} "${id}"`,
          body: `The KYC service has no candidate with this ${kind}. Check the id, or look it up as a ${OTHER_KIND[kind]}.`,
          action: (
            <Link className={buttonClass} to={candidatePath(OTHER_KIND[kind], id)}>
              Try as {OTHER_KIND[kind]}
            </Link>
          ),
        };
      case 'invalid_id':
        return { title: 'This id cannot be looked up', body: error.message };
      case 'unauthenticated':
        return {
          title: 'Your session has ended',
          body: 'Sign in again to look this candidate up.',
          action: (
            <button type="button" className={buttonClass} onClick={() => void queryClient.invalidateQueries({ queryKey: ['session'] })}>
              Sign in again
            </button>
          ),
        };
      case 'too_many_lookups':
        return {
          title: 'Too many lookups',
          body: `${error.message} The limit protects the KYC service and keeps lookups accountable.`,
          action: retry,
        };
      case 'audit_unavailable':
        return { title: 'This lookup could not be recorded', body: error.message, action: retry };
      case 'store_unavailable':
        return { title: 'Sign-in and lookups are paused', body: STORE_UNAVAILABLE_TEXT, action: retry };
      case 'unauthorized':
        return {
          title: "The KYC service rejected this server's API key",
          body: `${error.message} Nothing is wrong with the id you entered; ask whoever runs Candidate Lookup.`,
        };
      case 'rate_limited':
        return {
          title: 'The KYC service is limiting requests',
          body:
            error.details.retryAfterSeconds !== undefined
              ? `Too many lookups in a short time. Try again in ${error.details.retryAfterSeconds} s${error.details.retryAt ? ` (at ${error.details.retryAt.toLocaleTimeString()})` : ''}.`
              : 'Too many lookups in a short time. Wait a minute, then try again.',
          action: retry,
        };
      case 'unreachable':
        return { title: 'The KYC service cannot be reached', body: error.message, action: retry };
      case 'timeout':
        return { title: 'The KYC service did not answer in time', body: error.message, action: retry };
      case 'server_unreachable':
        return { title: 'The Candidate Lookup server cannot be reached', body: error.message, action: retry };
      case 'interrupted':
        return { title: 'The download broke off', body: error.message, action: retry };
      case 'too_large':
        return { title: 'The response is too large', body: error.message };
      case 'upstream_error':
        return { title: 'The KYC service answered with an error', body: error.message, action: retry };
      case 'not_json':
        return { title: 'The response is not readable', body: error.message };
      case 'archiving_key':
        return { title: 'Full lookups are refused: this API key deletes identity data', body: error.message };
      default:
        return {
          title: error.kind === 'malformed' ? 'The response has an unexpected shape' : 'The lookup failed',
          body: (
            <>
              {error.message} What was wrong:
              <pre
                tabIndex={0}
                className="mt-2 max-h-64 focus-visible:outline-2 focus-visible:outline-blue-600 overflow-auto rounded bg-white/70 p-2 text-xs break-all whitespace-pre-wrap"
              >
                {error.details.detail}
              </pre>
            </>
          ),
        };
    }
  })();

  return (
    <div role="alert" className="space-y-3 rounded-xl border border-red-200 bg-red-50 p-5 text-red-950" data-error-kind={error.kind}>
      <h1 className="text-xl font-semibold break-words">{view.title}</h1>
      <div className="text-sm break-words">{view.body}</div>
      <div className="flex flex-wrap gap-3">
        {view.action}
        <Link
          to="/"
          className="inline-flex items-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-900 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-blue-600"
        >
          New lookup
        </Link>
      </div>
    </div>
  );
}
