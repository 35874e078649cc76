import { Link } from '../navigation.tsx';
import { Button, buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import type { ApiError, ErrorCode } from '../api/api-error.ts';

const TITLES: Partial<Record<ErrorCode, string>> = {
  unauthenticated: 'Your session has ended',
  rate_limited: 'Too many requests',
  audit_unavailable: 'This request could not be recorded',
  store_unavailable: 'Sign-in and lookups are paused',
  upstream_unauthorized: "The KYC service rejected this server's API key",
  upstream_rate_limited: 'The KYC service is limiting requests',
  server_busy: 'This server is busy',
  internal_error: 'Candidate Lookup failed unexpectedly',
  upstream_unreachable: 'The KYC service cannot be reached',
  upstream_timeout: 'The KYC service did not answer in time',
  server_unreachable: 'The Candidate Lookup server cannot be reached',
  upstream_error: 'The KYC service answered with an error',
  response_too_large: 'The list is too large',
  not_json: 'The list is not readable',
  not_a_record: 'The list is not readable',
  malformed: 'The list has an unexpected shape',
};

/** While the first page loads. */
export function QueueSkeleton() {
  return (
    <div className="space-y-3" aria-busy="true">
      <p role="status" className="text-sm font-medium text-slate-700">
        Loading the applicants…
      </p>
      <div className="h-48 animate-pulse rounded-xl bg-slate-200" aria-hidden="true" />
    </div>
  );
}

/** What went wrong fetching a page, with a way to try again, like the candidate page's errors. */
export function QueueError({ error, onRetry, retrying }: { error: ApiError; onRetry: () => void; retrying: boolean }) {
  return (
    <Card role="alert" tone="danger" className="space-y-3" data-error-kind={error.code}>
      <h2 className="text-lg font-semibold">{TITLES[error.code] ?? 'The applicants list could not be fetched'}</h2>
      <p className="text-sm break-words">{error.message}</p>
      {error.detail && (
        <ScrollRegion label="What was wrong" className="max-h-48 rounded bg-white/70 p-2 text-xs">
          <pre className="break-all whitespace-pre-wrap">{error.detail}</pre>
        </ScrollRegion>
      )}
      <Button onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Try again'}
      </Button>
    </Card>
  );
}

/** The service has no list operation: not an error, a fact about this service. */
export function QueueNotOffered({ homeHref }: { homeHref: string }) {
  return (
    <Card role="note" tone="info" className="space-y-2" data-testid="queue-not-offered">
      <h2 className="text-lg font-semibold">This KYC service does not offer the applicants list</h2>
      <p className="text-sm">
        It answered that the list operation does not exist. Candidates can still be looked up one at a time by refId or recordId.
      </p>
      <Link to={homeHref} className={buttonClass({ variant: 'secondary' })}>
        Look a candidate up
      </Link>
    </Card>
  );
}
