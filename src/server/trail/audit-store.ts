import type { AuditRow, AuditSearchAnswer, IndexLag, NotReporting } from '../../kyc/contract/audit-search.ts';
import type { AuditStatus, InstanceState } from '../../kyc/contract/audit-status.ts';
import type { AuditLine, ClosableAuditLog } from '../audit/audit.ts';
import type { Logger } from '../log/log.ts';
import { createDatabase, databaseProblem, type Database, describeDatabaseUrl, migrate } from '../state/postgres.ts';
import { FILE_BOUNDS, type FileBounds, searchFiles } from './audit-file-search.ts';
import { cutsOf, withCuts } from './audit-cuts.ts';
import { createAuditIndexer, type AuditIndexer } from './audit-indexer.ts';
import type { SearchFilter } from './audit-match.ts';
import { reportNowAndThen, selfState, STALE_AFTER_MS } from './audit-reporting.ts';
import { reportsOf, searchTable } from './audit-table.ts';
import { similarUsersInFiles, similarUsersInTable } from './audit-users.ts';
import { type ChainWatch, createChainWatch } from './chain-watch.ts';
import { once, remembered } from './once.ts';
import { type Asker, createTrailReads, type TrailReadBounds } from './trail-reads.ts';
import { breaksOf, type SearchPage, searchTableMarked } from './unvouched.ts';

/**
 * Where the audit page reads the trail: with DATABASE_URL the table (fed by the indexer), falling back to
 * this instance's files while the database cannot answer; without it, the files. Either way the answer
 * says where it was read, and how far behind the table is.
 */

export interface AuditStoreOptions {
  /** The current audit file (AUDIT_LOG). */
  file: string;
  /** This instance's name in the table (AUDIT_INSTANCE). */
  instance: string;
  databaseUrl?: string;
  /** Days the table keeps a line (audit.retentionDays). */
  retentionDays: number;
  fileBounds?: FileBounds;
  logger?: Logger;
  /** A test's clock for the chain state and the retention. */
  now?: () => number;
  /** How long a file's chain check stands before it is read whole again (chain-watch.ts). */
  fullCheckMs?: number;
  /** Told the bytes each chain check hashed (chain-watch.ts's `onHashed`: a test counts what a search costs). */
  onChainHashed?: (bytes: number) => void;
  /** How often the retention runs (an hour; a test's shorter). */
  retainEveryMs?: number;
  /** This instance's reads of its files at once (trail-reads.ts; a test's smaller). */
  readBounds?: TrailReadBounds;
}

export interface AuditStore {
  instance: string;
  /** The database in use, said at start ("postgres://…/audit"); none without one. */
  database?: string;
  /** A page of rows; `marked` (the audit page's): those after a break in their instance's chain say so (unvouched.ts). */
  search(filter: SearchFilter, page: SearchPage): Promise<AuditSearchAnswer>;
  status(): Promise<AuditStatus>;
  /**
   * Every row of the filter, newest first, at most `max`, for a CSV export (a queue view's row lists whom it
   * showed, as the audit page's search lists them): read from one source
   * throughout (a cursor of the table means nothing to the files), so a database that fails half-way
   * makes the export fail rather than repeat or skip rows.
   */
  exportRows(filter: SearchFilter, max: number, asker?: Asker): AsyncGenerator<AuditRow>;
  /**
   * People's names in the trail that contain `typed`, capitals ignored, at most 5 (audit-users.ts); read
   * from the files within what is left of the bounds of the search that began at `started` (performance.now()).
   */
  similarUsers(typed: string, started: number, asker?: Asker): Promise<string[]>;
  /** Lines were written to the file: the table catches up. */
  notify(): void;
  close(): Promise<void>;
}

/** How long a search waits for this instance's newest lines to reach the table (a page shows the lookup just made). */
const CATCH_UP_MS = 1_000;
/**
 * Rows read at a time for an export: what a slow download holds. A queue view's row lists up to 100 ids of
 * up to 256 characters; a page of 1,000 such rows was 78 MB held per export.
 */
const EXPORT_PAGE = 100;

export function createAuditStore(options: AuditStoreOptions): AuditStore {
  const bounds = options.fileBounds ?? FILE_BOUNDS;
  const chains = createChainWatch(options.file, { now: options.now, fullCheckMs: options.fullCheckMs, onHashed: options.onChainHashed });
  const reads = createTrailReads(options.readBounds);
  const files = (filter: SearchFilter, { marked, asker, ...page }: SearchPage) =>
    reads.run(asker, async () => {
      const unvouched = marked ? await chains.unvouchedFrom() : undefined;
      return searchFiles(options.file, options.instance, filter, { ...page, ...(unvouched ? { unvouched } : {}) }, bounds);
    });
  const similarInFiles = (typed: string, started: number, asker: Asker | undefined) =>
    reads.run(asker, () => similarUsersInFiles(options.file, typed, bounds, started));
  if (!options.databaseUrl) {
    return {
      instance: options.instance,
      search: async (filter, page) => ({ ...(await files(filter, page)), source: { kind: 'files' } }),
      status: async () => ({
        source: { kind: 'files' },
        instances: [await selfState(options.instance, chains)],
        fileBounds: { maxLines: bounds.maxLines, maxMs: bounds.maxMs },
      }),
      exportRows: (filter, max, asker) => pagesOf((page) => files(filter, { ...page, marked: true, asker: pageAsker(asker, page) }), max),
      similarUsers: similarInFiles,
      notify: () => {},
      close: async () => {},
    };
  }
  return databaseStore(
    options,
    createDatabase(options.databaseUrl, { onConnectionLost: connectionLostSayer(options.logger) }),
    chains,
    files,
    similarInFiles,
  );
}

function databaseStore(
  options: AuditStoreOptions,
  db: Database,
  chains: ChainWatch,
  files: (filter: SearchFilter, page: SearchPage) => ReturnType<typeof searchFiles>,
  similarInFiles: (typed: string, started: number, asker: Asker | undefined) => Promise<string[]>,
): AuditStore {
  const { instance } = options;
  const ready = once(() => migrate(db));
  let afterPass = () => {};
  const indexer = createAuditIndexer(db, {
    file: options.file,
    instance,
    retentionDays: options.retentionDays,
    now: options.now,
    before: ready,
    onPass: () => afterPass(),
  });
  const reports = reportNowAndThen(options, db, ready, chains, indexer);
  afterPass = reports.afterPass;
  // What the other instances last reported changes every 30 s: read at most every 5 s, not per search.
  const othersReports = remembered(() => reportsOf(db, STALE_AFTER_MS, options.retentionDays), 5_000);
  // This instance's chain as checked now, the others' as they last reported it.
  const breaks = async () => breaksOf([{ instance, files: await chains.check() }, ...(await othersReports().catch(() => []))]);
  const table = async (filter: SearchFilter, { marked, ...page }: SearchPage) =>
    marked ? searchTableMarked(db, filter, page, await breaks(), options.retentionDays) : searchTable(db, filter, page);
  return {
    instance,
    database: describeDatabaseUrl(options.databaseUrl!),
    async search(filter, page) {
      await indexer.caughtUp(CATCH_UP_MS);
      const { behind, notReporting } = await lagsOf(othersReports, indexer, instance);
      const warnings = { ...(behind.length ? { behind } : {}), ...(notReporting.length ? { notReporting } : {}) };
      const problem = indexer.problem();
      if (!problem) {
        try {
          await ready();
          return { ...(await table(filter, page)), source: { kind: 'database', ...warnings } };
        } catch (error) {
          return { ...(await files(filter, page)), source: { kind: 'files', fallback: databaseProblem(error), behind } };
        }
      }
      return { ...(await files(filter, page)), source: { kind: 'files', fallback: problem, behind } };
    },
    status: () => databaseStatus(db, ready, chains, indexer, options),
    async *exportRows(filter, max, asker) {
      await indexer.caughtUp(CATCH_UP_MS);
      const fromTable =
        !indexer.problem() &&
        (await ready().then(
          () => true,
          () => false,
        ));
      // Marked as the search marks them: the CSV's `unvouched` column.
      yield* pagesOf(
        (page) =>
          fromTable ? table(filter, { ...page, marked: true }) : files(filter, { ...page, marked: true, asker: pageAsker(asker, page) }),
        max,
      );
    },
    async similarUsers(typed, started, asker) {
      if (!indexer.problem()) {
        try {
          await ready();
          return await similarUsersInTable(db, typed);
        } catch {
          // As a search does: the files while the table cannot answer.
        }
      }
      return similarInFiles(typed, started, asker);
    },
    notify: () => indexer.notify(),
    async close() {
      // Its last report: stopped, once the indexer has caught up with the files (or what it left behind).
      await reports.last();
      indexer.close();
      await db.end().catch(() => {});
    },
  };
}

/** The database ending a connection, in the log (createDatabase says it once until a connection is made again). */
function connectionLostSayer(logger: Logger | undefined) {
  return (error: Error) =>
    logger?.warn(
      `Audit table: the database ended a connection (${databaseProblem(error)}); the call that held it failed, the next one connects again.`,
    );
}

/** The audit page's state of the trail: this instance's chains now, the others' as they last reported, and the cuts the table recorded. */
async function databaseStatus(
  db: Database,
  ready: () => Promise<void>,
  chains: ChainWatch,
  indexer: AuditIndexer,
  options: AuditStoreOptions,
): Promise<AuditStatus> {
  const { instance } = options;
  const self = await selfState(instance, chains, indexer);
  const others = await ready()
    .then(() => reportsOf(db, STALE_AFTER_MS, options.retentionDays))
    .catch(() => [] as InstanceState[]);
  const problem = indexer.problem();
  // Cuts recorded in the table (audit-cuts.ts) stand as breaks, whatever the files say now.
  const cuts = await cutsOf(db).catch(() => []);
  return {
    source: problem ? { kind: 'files', fallback: problem } : { kind: 'database' },
    instances: withCuts([self, ...others.filter((state) => state.instance !== instance)], cuts),
    retentionDays: options.retentionDays,
  };
}

/** An export's page past its first keeps its turn: its download has begun, and refused now it would be cut short. */
const pageAsker = (asker: Asker | undefined, page: { cursor?: string }): Asker | undefined =>
  asker && page.cursor ? { ...asker, begun: true } : asker;

/** Rows a page at a time, each page going on from the last one's cursor, until there are no more or `max`. */
async function* pagesOf(
  read: (page: { limit: number; cursor?: string; shown: true }) => Promise<{ rows: AuditRow[]; next?: string }>,
  max: number,
): AsyncGenerator<AuditRow> {
  let given = 0;
  let cursor: string | undefined;
  do {
    // A queue view's row lists whom it showed, as the audit page's search lists them: the CSV has a column for it.
    const page = await read({ limit: Math.min(EXPORT_PAGE, max - given), ...(cursor ? { cursor } : {}), shown: true });
    for (const row of page.rows) yield row;
    given += page.rows.length;
    cursor = page.next;
  } while (cursor && given < max);
}

/**
 * This instance's lag (zero lines: left out), and the other instances' as they last reported it; those whose
 * last report is stale, as not reporting (their lag since then is unknown).
 */
async function lagsOf(
  reports: () => Promise<InstanceState[]>,
  indexer: AuditIndexer,
  instance: string,
): Promise<{ behind: IndexLag[]; notReporting: NotReporting[] }> {
  const own = await indexer.lag();
  const others = (indexer.problem() ? [] : await reports().catch(() => [] as InstanceState[])).filter(
    (state) => state.instance !== instance,
  );
  return {
    behind: [own, ...others.flatMap((state) => (state.behind ? [state.behind] : []))].filter((lag) => lag.lines > 0 || lag.problem),
    notReporting: others.flatMap((state) => (state.notReporting ? [{ instance: state.instance, since: state.reportedAt }] : [])),
  };
}

/** The audit log, with the store told of every line written, so that the table follows at once. */
export function notifyingAuditLog<T extends ClosableAuditLog>(audit: T, store: Pick<AuditStore, 'notify'>): T {
  return {
    ...audit,
    async record(entry: AuditLine) {
      await audit.record(entry);
      store.notify();
    },
  };
}
