import type { Logger } from '../log/log.ts';
import { databaseProblem } from '../state/postgres.ts';

/**
 * What the hourly retention did, in the log: the lines it deleted, and a failure, which would otherwise
 * keep lines past audit.retentionDays unseen (said once until it works again, not every hour).
 */
export function retentionSayer(options: { retentionDays: number; logger?: Logger | undefined }) {
  let failing: string | undefined;
  return {
    deleted: (count: number) => {
      if (failing) options.logger?.info('Audit table: the retention deletes lines again.');
      failing = undefined;
      if (count > 0)
        options.logger?.info(`Audit table: ${count} lines older than ${options.retentionDays} days deleted (audit.retentionDays).`);
    },
    failed: (error: unknown) => {
      const problem = databaseProblem(error);
      if (problem !== failing) {
        options.logger?.warn(
          `Audit table: lines older than ${options.retentionDays} days could not be deleted (${problem}); they stay until the retention, tried every hour, works again.`,
        );
      }
      failing = problem;
    },
  };
}
