import type { ApplicantFilter } from '../../kyc/contract/applicants.ts';
import type { Logger } from '../log/log.ts';
import type { QueueIndex } from '../state/queue-index.ts';

/**
 * After a whole read of a tab, the candidates the index holds in it that the list did not show: they
 * moved (a status no webhook told of) or are gone. Each is looked up (its record then places it, or
 * removes it: the service has it no more), not dropped on the list's word alone, since a list read a
 * page at a time while it changes can skip a row that is still there.
 */

const CHUNK = 5000;
/** A read that saw less than this share of what the service listed does not sweep: it would check half the index. */
const WHOLE_ENOUGH = 0.9;
/** Fewer unseen than this are checked whatever the read saw. */
const FEW = 100;

export interface SweepOptions {
  index: QueueIndex;
  environment: string;
  filter: ApplicantFilter;
  /** The members the read saw. */
  seen: ReadonlySet<string>;
  read: number;
  listed: number;
  check: (member: string, unseen: true) => void;
  logger: Logger;
}

export async function sweepTab(options: SweepOptions): Promise<number> {
  const { index, environment, filter, seen } = options;
  const unseen: string[] = [];
  for (const set of [`z:${filter}`, `u:${filter}`] as const) {
    for (let offset = 0; ; offset += CHUNK) {
      const members = await index.members(environment, set, offset, CHUNK);
      for (const member of members) if (!seen.has(member)) unseen.push(member);
      if (members.length < CHUNK) break;
    }
  }
  if (unseen.length > FEW && options.read < options.listed * WHOLE_ENOUGH) {
    options.logger.warn(
      `The queue crawler read ${options.read} of the ${options.listed} candidates the ${filter} list of ${environment} has: the ${unseen.length} it did not see are checked after a fuller read.`,
    );
    return 0;
  }
  for (const member of unseen) options.check(member, true);
  return unseen.length;
}
