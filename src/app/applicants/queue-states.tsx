import { Link } from '../navigation.tsx';
import { Button, buttonClass } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { ScrollRegion } from '../ui/scroll-region.tsx';
import type { ApiError, ErrorCode } from '../api/api-error.ts';
import type { QueueOrder } from '../../kyc/contract/applicants.ts';
import type { QueueTab } from './applicants-tabs.tsx';

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

/**
 * How the tab is ordered: by age across the whole list ("340 of 1000 known" while the index fills, the
 * rest in the service's order), or the service's order when the tab is over the index's bound.
 */
export function QueueOrderNote({ order }: { order: QueueOrder | undefined }) {
  if (!order) return null;
  let text: string;
  if (order.by === 'service') {
    // queueIndexMax 0 turns the order by age off.
    text = !order.over
      ? "In the KYC service's order."
      : `In the KYC service's order: this tab has more than ${order.over.toLocaleString()} candidates, too many to order by age.`;
  } else if (order.known >= order.of) {
    text = 'Ordered by age: oldest first.';
  } else {
    text = `Ordered by age: ${order.known.toLocaleString()} of ${order.of.toLocaleString()} known, oldest first; the others follow in the KYC service's order while their dates are looked up.`;
  }
  return (
    <p className="text-sm text-slate-700" data-testid="queue-order" data-order={order.by}>
      {text}
    </p>
  );
}

/** The filters the service refused: their tabs are not offered, and the page says so. */
export function RefusedFiltersNote({ refused }: { refused: readonly QueueTab[] }) {
  if (refused.length === 0) return null;
  const names = refused.map((tab) => tab.label);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return (
    <p role="note" className="text-sm text-slate-600" data-testid="refused-filters">
      This KYC service does not offer the {list} {names.length === 1 ? 'filter' : 'filters'}: those candidates are listed under All.
    </p>
  );
}
