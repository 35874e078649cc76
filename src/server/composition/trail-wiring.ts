import type { AuditLog } from '../audit/audit.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { ApiSettings } from '../config/settings.ts';
import type { Route } from '../http/routes.ts';
import type { Metrics } from '../ops/metrics.ts';
import { createRateLimiter } from '../ops/rate-limit.ts';
import type { SharedStore } from '../state/store.ts';
import { type ActivityDeps, auditRoutes } from '../trail/audit-routes.ts';
import type { AuditStore } from '../trail/audit-store.ts';
import type { SameCandidate } from '../trail/same-candidate.ts';

/** The audit trail as the app reads it, wired: the audit page's routes and a candidate's Activity, each user's reads limited. */

interface Shared {
  access: AccessControl;
  metrics: Metrics;
  store: SharedStore;
}

/** The audit page's routes; a search by one id also asks the queue index for the other (`sameCandidate`). */
export function trailRoutes(
  settings: ApiSettings,
  store: AuditStore,
  audit: AuditLog,
  shared: Shared,
  sameCandidate: SameCandidate,
): Route[] {
  return auditRoutes({
    store,
    audit,
    sameCandidate,
    searches: createRateLimiter(shared.store, 'audit-searches', settings.limits.auditSearchesPerMinute),
    rateLimitKey: shared.access.rateLimitKey,
    metrics: shared.metrics,
    stallMs: settings.browserStallMs,
  });
}

/** A candidate's Activity: the trail, and each user's reads of it (limits.activityPerMinute). */
export function activityOf(settings: ApiSettings, store: AuditStore, shared: Shared): ActivityDeps {
  return {
    store,
    reads: createRateLimiter(shared.store, 'activity', settings.limits.activityPerMinute),
    rateLimitKey: shared.access.rateLimitKey,
    metrics: shared.metrics,
  };
}
