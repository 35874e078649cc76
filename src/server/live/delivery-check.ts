import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { ServedEnvironment } from '../lookup/served-environment.ts';
import type { Logger } from '../log/log.ts';
import { serverStatusLookup, type StatusChecked, type StatusLookup, WEBHOOK_CHECK_USER } from '../lookup/queue-lookup.ts';

/**
 * A webhook delivery is a hint, never a fact (issue 31): a signed body can be replayed (after a restart
 * the receiver has forgotten it; Redis forgets after 24 h), so before the queue index learns anything or
 * a page is told, the server asks the service itself for the candidate's status level, once for
 * everyone. Checks are coalesced per candidate: while one is under way, the deliveries of that candidate
 * that arrive share one more check after it (never the one already sent, which may have been answered
 * before their change), so a burst of deliveries costs the service two lookups, not one each.
 */
export function coalescedChecks(lookup: StatusLookup): StatusLookup {
  const slots = new Map<string, { running?: Promise<StatusChecked>; queued?: Promise<StatusChecked> }>();
  const check: StatusLookup = (kind: LookupKind, id: string) => {
    const key = JSON.stringify([kind, id]);
    const slot = slots.get(key) ?? {};
    slots.set(key, slot);
    if (!slot.running) {
      slot.running = lookup(kind, id).finally(() => {
        slot.running = undefined;
        if (!slot.queued) slots.delete(key);
      });
      return slot.running;
    }
    slot.queued ??= slot.running.then(() => {
      slot.queued = undefined;
      return check(kind, id);
    });
    return slot.queued;
  };
  return check;
}

/**
 * Each environment's check of a webhook delivery's candidate: a status-level lookup of this server's own,
 * coalesced per candidate. Without a status-level key it would go with the full key, and a delivery is
 * nobody opening the candidate: so it takes the crawler's rule of the full key (crawler-full-key.ts),
 * never the first full request of a key, nor one while the key is found to archive after extract, even
 * accepted (facts review: with such a key every new submission's delivery scheduled the deletion of its
 * identity data before anyone had looked at it).
 */
export function webhookChecks(served: readonly ServedEnvironment[], logger: Logger): (environment: string) => StatusLookup | undefined {
  const checks = new Map(
    served.map(({ environment, deps }) => [
      environment.info.name,
      coalescedChecks(serverStatusLookup(deps, logger, WEBHOOK_CHECK_USER, { fullKeyOnceSafe: true })),
    ]),
  );
  return (environment) => checks.get(environment);
}
