import { randomUUID } from 'node:crypto';
import { APPLICANT_FILTERS, type ApplicantFilter, DOCUMENTED_FILTERS } from '../../kyc/contract/applicants.ts';
import { joinIdless } from '../../kyc/contract/idless.ts';
import { queueRereadMs } from '../../kyc/contract/queue-reread.ts';
import { describeUnexpected, type Logger, logFaultOf } from '../log/log.ts';
import { factsOfRecord, parseQueueKey, type QueueIndex } from '../state/queue-index.ts';
import { CrawlPool, type CrawlClock, RETRY, realClock } from './crawler-pool.ts';
import type { ListPage } from './crawler-list.ts';
import { pageOf, restOfTab } from './crawler-pages.ts';
import { type CrawlTab, crawlError, crawlField, readCrawlState, type TabCrawl } from './queue-crawl-state.ts';
import type { StatusLookup } from './queue-lookup.ts';
import type { ServiceOperation } from '../upstream/service-wait.ts';
import { sweepTab } from './queue-sweep.ts';

/**
 * The one crawler of an environment (issue 32), across every instance: whoever holds the environment's
 * lease in the index's store (a Redis key with an expiry its holder renews; in memory, this instance)
 * walks the service's lists, tab by tab, a page of 100 at a time, several at once up to the rate
 * (crawler-pool.ts), and learns each record (queue-index.ts); it looks up the dates the list does not
 * carry (the older notes' records have none; the current documentation's carry theirs) and, once a tab
 * was read whole, checks the candidates the index still has in it that the list no longer showed
 * (queue-sweep.ts). The other instances only renew their wish for the lease: nothing is asked twice.
 */

export interface CrawlerOptions {
  environment: string;
  index: QueueIndex;
  /** A page of the service's list, given up when `signal` is aborted. */
  fetchPage: (filter: ApplicantFilter | undefined, skip: number, signal?: AbortSignal) => Promise<ListPage>;
  /** A status-level lookup of the crawler's own (queue-lookup.ts's serverStatusLookup, audited as `(queue-index)`). */
  lookup: StatusLookup;
  /** Requests a second to the service, pages and lookups together (limits.queueIndexLookupsPerSecond). */
  perSecond: number;
  /** Requests under way at once (default 4, a user's upstream slots). */
  concurrency?: number;
  /** Until when the service asked to be left alone with an operation (the upstream client's, service-wait.ts). */
  pausedUntil: (operation: ServiceOperation) => number;
  /** How long after a whole read a tab of work is read again (default 60 s; the decisions' tabs 15 times as long). */
  intervalMs?: number;
  /** The lease's length; its holder renews it at a third of it (default 15 s). */
  leaseMs?: number;
  clock?: CrawlClock;
  logger: Logger;
}

export interface QueueCrawler {
  /** Takes part in the lease, and crawls while it holds it (in the background, until `close`). */
  start(): void;
  /** Reads every tab once now, and waits for the lookups that started (tests and the bench; holds the lease meanwhile). */
  crawlNow(): Promise<void>;
  close(): Promise<void>;
}

export const LEASE_MS = 15_000;
/** A tab whose read failed is tried again this long after. */
const RETRY_FAILED_MS = 30_000;
/** How long a stop waits for the crawl's requests under way. */
const STOP_WAIT_MS = 1000;

export function createQueueCrawler(options: CrawlerOptions): QueueCrawler {
  const clock = options.clock ?? realClock;
  const { environment, index } = options;
  const store = index.store;
  const holder = randomUUID();
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const stopped = new AbortController();
  let crawling: { controller: AbortController; done: Promise<void> } | undefined;
  let loop: Promise<void> | undefined;

  const run = (signal: AbortSignal, once: boolean) => {
    const pool = new CrawlPool({
      perSecond: options.perSecond,
      concurrency: options.concurrency ?? 4,
      clock,
      pausedUntil: options.pausedUntil,
      signal,
      // The error's kind, never its message: a message may repeat what the service answered.
      onError: (error) =>
        options.logger.warn(
          { env: environment, error: describeUnexpected(error) },
          `The queue crawler of ${environment} failed a request.`,
        ),
    });
    const pass = createPass({ ...options, clock, pool, signal });
    return once ? pass.everyTab() : pass.forever();
  };
  const stopCrawling = async () => {
    const current = crawling;
    crawling = undefined;
    current?.controller.abort();
    // Its list pages are given up at once; a lookup under way ends by itself (its own timeout): not waited for long.
    if (current) await Promise.race([current.done, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
  };
  const keepLease = async () => {
    while (!stopped.signal.aborted) {
      const held = await store.lease(environment, holder, leaseMs).catch(() => false);
      if (!held) await stopCrawling();
      else if (!crawling) {
        const controller = new AbortController();
        crawling = { controller, done: run(controller.signal, false).catch((error: unknown) => report(options, error)) };
      }
      await clock.sleep(leaseMs / 3, stopped.signal);
    }
  };
  return {
    start() {
      loop ??= keepLease();
    },
    async crawlNow() {
      if (!(await store.lease(environment, holder, leaseMs))) throw new Error(`another instance holds the crawler lease of ${environment}`);
      const controller = new AbortController();
      const stop = () => controller.abort();
      stopped.signal.addEventListener('abort', stop, { once: true });
      // Taken off after the run: a listener per crawl piled up on the crawler's signal.
      await run(controller.signal, true).finally(() => stopped.signal.removeEventListener('abort', stop));
    },
    async close() {
      stopped.abort();
      await stopCrawling();
      await loop;
      await store.release(environment, holder).catch(() => {});
    },
  };
}

function report(options: Pick<CrawlerOptions, 'logger' | 'environment'>, error: unknown): void {
  options.logger.warn(
    { env: options.environment, error: describeUnexpected(error) },
    `The queue crawler of ${options.environment} stopped; it starts again with the lease.`,
  );
}

type PassOptions = CrawlerOptions & { clock: CrawlClock; pool: CrawlPool; signal: AbortSignal };

/** The tabs read, their due times and one read of a tab; the date lookups they start, once each. */
function createPass(options: PassOptions) {
  const { environment, index, pool, signal, clock } = options;
  const asking = new Map<string, Promise<void>>();
  const state = async () => readCrawlState(await index.store.readMeta(environment));
  const save = (tab: CrawlTab, value: TabCrawl) => index.store.writeMeta(environment, { [crawlField(tab)]: JSON.stringify(value) });

  /**
   * Looks a member up, once at a time: its facts replace what is known. `unseen`: the list did not show
   * it (the sweep), so a 404 means it is gone; a row the list shows is never dropped on a lookup's 404.
   */
  const check = (member: string, unseen = false) => {
    if (asking.has(member) || signal.aborted) return;
    const job = pool.run('lookup', () => lookupJob(options, member, unseen)).then(() => void asking.delete(member));
    asking.set(member, job);
  };
  // Every filter, then the unfiltered list: read whole only when it holds more than the filters do (a
  // status no filter names, a filter refused, records that cannot be read), which its first page says.
  const tabs: readonly CrawlTab[] = [...APPLICANT_FILTERS, 'all'];
  const dueAt = (tab: CrawlTab, crawl: TabCrawl | undefined): number => {
    const every = crawl?.refused ? queueRereadMs('all', options.intervalMs) : queueRereadMs(tab, options.intervalMs);
    const failedLast = crawl?.error && crawl.error.at >= (crawl.asOf ?? 0);
    return failedLast
      ? crawl.error!.at + Math.min(every, RETRY_FAILED_MS)
      : (crawl?.asOf ?? crawl?.started ?? 0) + (crawl?.asOf ? every : 0);
  };
  const readTab = (tab: CrawlTab, known: Partial<Record<CrawlTab, TabCrawl>>) => {
    const inFilters = APPLICANT_FILTERS.reduce((sum, filter) => sum + (known[filter]?.refused ? 0 : (known[filter]?.listed ?? 0)), 0);
    return readWholeTab({ ...options, save, check, before: known[tab], tab, inFilters });
  };
  const drained = async () => {
    while (asking.size > 0 && !signal.aborted) await Promise.all([...asking.values()]);
  };
  return {
    async everyTab() {
      for (const tab of tabs) await readTab(tab, await state());
      await drained();
    },
    async forever() {
      while (!signal.aborted) {
        const known = await state();
        const [tab, at] = tabs
          .map((one) => [one, dueAt(one, known[one])] as const)
          .reduce((soonest, one) => (one[1] < soonest[1] ? one : soonest));
        if (at > clock.now()) await clock.sleep(Math.min(at - clock.now(), 5000), signal);
        else await readTab(tab, known);
      }
    },
  };
}

type ReadOptions = PassOptions & {
  tab: CrawlTab;
  before: TabCrawl | undefined;
  save: (tab: CrawlTab, value: TabCrawl) => Promise<void>;
  check: (member: string, unseen?: boolean) => void;
  /** The candidates the filters' last reads listed: the unfiltered list with no more is not read past its first page. */
  inFilters: number;
};

/** One whole read of a tab: its pages, every record learnt, the undated looked up, then the sweep. */
async function readWholeTab(options: ReadOptions): Promise<void> {
  const { tab, before, save, clock, index, environment } = options;
  const filter = tab === 'all' ? undefined : tab;
  const started = clock.now();
  const { limitedUntil: _limited, ...kept } = before ?? {};
  const progress: TabCrawl = { ...kept, started, read: 0, ...(before?.listed === undefined ? {} : { listed: before.listed }) };
  const reading = { ...options, limited: (until: number) => save(tab, { ...progress, limitedUntil: until }) };
  const seen = new Set<string>();
  let skipped: TabCrawl['skipped'];
  let idless: TabCrawl['idless'];
  const learn = async (page: Extract<ListPage, { ok: true }>, skip: number) => {
    const learnt = await index.learnListed(environment, page.records, { listedAt: page.askedAt, position: skip });
    for (const one of learnt) {
      if (!one) continue;
      seen.add(one.member);
      if (one.due) options.check(one.member);
    }
    const reasons = [...(skipped?.reasons ?? []), ...(page.skipped?.reasons ?? [])];
    if (page.skipped) skipped = { count: (skipped?.count ?? 0) + page.skipped.count, reasons: [...new Set(reasons)] };
    idless = joinIdless(idless, page.idless);
    progress.read = (progress.read ?? 0) + page.served;
    if (page.total !== undefined) progress.listed = Math.max(progress.listed ?? 0, page.total);
  };
  const first = await pageOf(reading, filter, 0);
  if (!first) return;
  if (!first.ok) return failed(options, first, progress);
  await learn(first, 0);
  if (tab === 'all' && first.total !== undefined && first.total <= options.inFilters) {
    // No more than the filters hold: nothing the filters' reads did not see (beyond this first page, learnt).
    return save(tab, {
      asOf: clock.now(),
      listed: first.total,
      read: first.served,
      ...(skipped ? { skipped } : {}),
      ...(idless ? { idless } : {}),
    });
  }
  await save(tab, progress);
  const ended = await restOfTab(reading, filter, first, async (page, skip) => {
    await learn(page, skip);
    await save(tab, progress);
  });
  if (ended !== 'read') return ended && failed(options, ended, progress);
  // A list that gives no total had as many as were read; one whose total was low, at least as many.
  const listed = first.total === undefined ? (progress.read ?? 0) : Math.max(progress.listed ?? 0, progress.read ?? 0);
  const done: TabCrawl = {
    asOf: clock.now(),
    listed,
    read: progress.read ?? 0,
    ...(skipped ? { skipped } : {}),
    ...(idless ? { idless } : {}),
  };
  await save(tab, done);
  if (tab !== 'all') await sweepTab({ ...options, filter: tab, seen, read: progress.read ?? 0, listed });
}

/**
 * A read that failed: the filter refused (an undocumented one, 400 or 404), or the failure kept for the
 * views. Neither the index (Redis, shown to every user) nor the log line holds the service's own words:
 * they may name a candidate. The index and the log line keep this server's sentence (ownMessage, which
 * says what was wrong: "holds more than 32,768 records"), the log line its code and HTTP status too.
 */
async function failed(options: ReadOptions, page: Extract<ListPage, { ok: false }>, progress: TabCrawl): Promise<void> {
  const { tab, environment } = options;
  const refused = tab !== 'all' && !DOCUMENTED_FILTERS.includes(tab) && (page.upstreamStatus === 400 || page.upstreamStatus === 404);
  if (refused) return options.save(tab, { ...progress, refused: true, asOf: options.clock.now() });
  const { code, ownMessage } = page.failure;
  const { upstreamStatus } = page;
  const error = crawlError(page.failure, { at: options.clock.now(), upstreamStatus, withheld: page.withheld === true });
  const { refused: _was, ...rest } = progress;
  if (options.before?.error?.code !== code) {
    logFaultOf(options.logger, page.failure);
    const status = upstreamStatus === null ? '' : ` (HTTP ${upstreamStatus})`;
    options.logger.warn(
      { env: environment, tab, code, upstreamStatus },
      `The queue crawler could not read the ${tab} list of ${environment}: ${code}${status}: ${ownMessage}`,
    );
  }
  await options.save(tab, { ...rest, error });
}

/** One lookup of a member: the record's facts, or, for one the list no longer shows, forgotten when the service has it no more. */
async function lookupJob(options: PassOptions, member: string, unseen: boolean): Promise<typeof RETRY | undefined> {
  const key = parseQueueKey(member);
  if (!key) return undefined;
  const checked = await options.lookup(key.kind, key.id);
  if (checked.ok) options.pool.answered('lookup');
  else if (checked.code === 'upstream_rate_limited') options.pool.limited('lookup');
  if (checked.ok) await options.index.learnRecord(options.environment, factsOfRecord(checked.record, Date.now()));
  else if (checked.code === 'not_found' && unseen) await options.index.forget(options.environment, [member]);
  // Told to wait for a time: asked again after it. Not asked (no slot, the audit log, a key that archives), or a 429
  // that names no wait: the next read asks again.
  else if (checked.code === 'upstream_rate_limited' && options.pausedUntil('lookup') > options.clock.now()) return RETRY;
  return undefined;
}
