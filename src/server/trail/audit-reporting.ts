import type { InstanceState } from '../../kyc/contract/audit-status.ts';
import { databaseProblem, type Database, DatabaseUnfit } from '../state/postgres.ts';
import type { Logger } from '../log/log.ts';
import type { AuditIndexer } from './audit-indexer.ts';
import { applyRetention, saveReport } from './audit-table.ts';
import type { ChainWatch } from './chain-watch.ts';
import { retentionSayer } from './retention-log.ts';

/** How often an instance tells the table how its files stand, and deletes what is past the retention. */
const REPORT_EVERY_MS = 30_000;
/** An instance whose last report is older than this is not reporting (stopped, or the table cannot be written). */
export const STALE_AFTER_MS = 2 * REPORT_EVERY_MS;
const RETAIN_EVERY_MS = 60 * 60_000;
/** At a close, how long the indexer may take to catch up with the files, and the last report to be written. */
const LAST_REPORT_MS = 3_000;

/** What the reports need of the store's options (audit-store.ts). */
interface ReportOptions {
  instance: string;
  retentionDays: number;
  retainEveryMs?: number;
  logger?: Logger | undefined;
}

/**
 * At start and then every 30 s: this instance's files and lag told to the table (the audit page of every
 * instance shows them), the database's state said in the log when it changes; every hour, the retention.
 * A report that said the table was behind is made again as soon as a pass has caught up, so that no other
 * instance's page goes on saying so for the rest of the 30 s.
 */
export function reportNowAndThen(
  options: ReportOptions,
  db: Database,
  ready: () => Promise<void>,
  chains: ChainWatch,
  indexer: AuditIndexer,
) {
  let said: string | undefined;
  const say = (problem: string | undefined, unfit = false) => {
    if (problem === said) return;
    said = problem;
    // A database the schema cannot be made in (not UTF8, too old): no outage that passes, said as it is.
    if (problem && unfit) {
      options.logger?.error(
        `Audit table: the schema cannot be made: ${problem} The audit files go on, and the audit page searches them until the database is fit.`,
      );
    } else if (problem) {
      options.logger?.warn(
        `Audit table: the database cannot be written (${problem}); the audit files go on, and the table catches up when it is back.`,
      );
    } else options.logger?.info('Audit table: the database answers; the table follows the audit files.');
  };
  let saidBehind = false;
  let reporting: Promise<void> | undefined;
  let stopped = false;
  const report = async () => {
    const state = await selfState(options.instance, chains, indexer);
    await ready();
    await saveReport(db, options.instance, { files: state.files, ...(state.behind ? { behind: state.behind } : {}) });
    saidBehind = state.behind !== undefined;
  };
  const reportAndSay = () => {
    if (reporting || stopped) return;
    reporting = report()
      .then(
        () => say(indexer.problem()),
        (error: unknown) => say(databaseProblem(error), error instanceof DatabaseUnfit),
      )
      .finally(() => {
        reporting = undefined;
      });
  };
  const retain = () => ready().then(() => applyRetention(db, options.retentionDays));
  const sayRetained = retentionSayer(options);
  const reporter = setInterval(reportAndSay, REPORT_EVERY_MS);
  const retainer = setInterval(() => void retain().then(sayRetained.deleted, sayRetained.failed), options.retainEveryMs ?? RETAIN_EVERY_MS);
  reporter.unref();
  retainer.unref();
  // At start too (where it deletes the most) the retention says what it did; an unreachable database is said as such.
  void ready()
    .then(() => applyRetention(db, options.retentionDays).then(sayRetained.deleted, sayRetained.failed))
    .then(() => indexer.syncNow())
    .then(reportAndSay, (error: unknown) => say(databaseProblem(error), error instanceof DatabaseUnfit));
  return {
    afterPass: () => {
      if (saidBehind) reportAndSay();
    },
    /**
     * The last report, at a clean close: this instance stopped, once the indexer has caught up with its files
     * (or what it could not put in the table by then, as `behind`). Given up after a few seconds, the
     * database away: the instance then shows as not reporting, as one that died does.
     */
    last: async () => {
      stopped = true;
      clearInterval(reporter);
      clearInterval(retainer);
      await reporting;
      const last = async () => {
        if (!indexer.problem()) await within(indexer.syncNow(), LAST_REPORT_MS).catch(() => {});
        const state = await selfState(options.instance, chains, indexer);
        await ready();
        await saveReport(db, options.instance, { files: state.files, ...(state.behind ? { behind: state.behind } : {}), stopped: true });
      };
      await within(last(), 2 * LAST_REPORT_MS).catch((error: unknown) => say(databaseProblem(error), error instanceof DatabaseUnfit));
    },
  };
}

/** `work`, or a rejection once `ms` have passed. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export async function selfState(instance: string, chains: ChainWatch, indexer?: AuditIndexer): Promise<InstanceState> {
  const [files, behind] = await Promise.all([chains.check(), indexer?.lag()]);
  return {
    instance,
    self: true,
    reportedAt: new Date().toISOString(),
    files,
    ...(behind && (behind.lines > 0 || behind.problem) ? { behind } : {}),
  };
}
