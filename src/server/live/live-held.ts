import type { ArchivingGuard } from '../archiving/archiving-guard.ts';
import type { Logger } from '../log/log.ts';
import { crawlerFullKeyWithheld } from '../lookup/crawler-full-key.ts';
import type { ServedEnvironment } from '../lookup/served-environment.ts';

/**
 * Whether an environment's live updates are held, for `/api/meta` (`liveHeld`). Without a status-level key
 * a webhook delivery's check goes with the full key, so it takes the crawler's rule of that key
 * (delivery-check.ts, crawler-full-key.ts): until a lookup here has shown the key keeps identity data, and
 * while it is found to archive after extract, deliveries are not checked, so no page is told of them.
 * The meta said `live: true` all the same, and the header "Live": now it says they are held, and why.
 */

/**
 * How long a reason read is kept. The meta is asked at every page load and environment switch, and the
 * finding may be Redis's (one request each); this process's own turns (a lookup that showed the key safe,
 * one that failed to) are looked at each time all the same (`turns`), so a reviewer's lookup is seen at once.
 */
const LIVE_HELD_FRESH_MS = 1000;

type Kept = { reason: string | undefined; at: number; safe: boolean; failed: string | undefined };
const kept = new WeakMap<ArchivingGuard, Kept>();

/**
 * Why the environment's live updates are held, in the reason's own words (ownMessage: never the service's,
 * which a support user may not read); undefined when they are not: no webhook secret (no live updates at
 * all: `live` false), or a status-level key, whose checks never touch the full key.
 */
export async function liveHeldOf({ environment, deps }: ServedEnvironment, log: Logger, now = Date.now): Promise<string | undefined> {
  if (!environment.webhookSecret || deps.hasStatusKey) return undefined;
  const { archiving } = deps;
  const turns = { safe: archiving.shownSafe(), failed: archiving.checkFailed()?.code };
  const last = kept.get(archiving);
  if (last && last.safe === turns.safe && last.failed === turns.failed && now() - last.at < LIVE_HELD_FRESH_MS) return last.reason;
  const reason = (await crawlerFullKeyWithheld(deps, log))?.ownMessage;
  kept.set(archiving, { reason, at: now(), ...turns });
  return reason;
}
