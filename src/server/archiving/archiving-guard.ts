import type http from 'node:http';
import type { ArchivingKey, EnvironmentInfo } from '../../kyc/contract/api.ts';
import { ARCHIVES_ON_EXTRACT_SETTING, archivesOnExtract, archivesWithoutDate } from '../../kyc/contract/archiving.ts';
import { createSightings } from './archive-sightings.ts';
import { readToTheEnd, type Scan } from '../answer/archive-watch.ts';
import { type ArchivingFindings, findingName, findingsInStore } from './archiving-findings.ts';
import { ApiFailure, brokenOff } from '../http/api-failure.ts';
import { createGate, FREE, type Hold, type Waiting } from './archiving-gate.ts';
import { elapsedText } from '../log/elapsed.ts';
import type { Logger } from '../log/log.ts';
import { STORE_UNAVAILABLE } from '../http/http-reply.ts';
import { createMemoryStore, StoreUnavailableError } from '../state/store.ts';
import type { UpstreamBody } from '../answer/upstream-body.ts';
import type { UpstreamOutcome } from '../upstream/upstream-client.ts';

/**
 * "Archive after extract" (a key setting of the service): every full-level lookup with such a key makes
 * the service delete the candidate's identity data seconds later. Nothing tells in advance; the first full
 * answer does, by a `willArchiveAtDate` close to the lookup; a key whose delay is a day or more, the next full
 * lookup of a candidate, by its date moving with the lookups (movedWithLookup). From then on full lookups are refused (409),
 * unless the operator accepts it. The finding is kept where every instance and the next start read it
 * (archiving-findings.ts), per environment and key. Its warnings go to the log of the request that
 * brought them about (`log`), so they carry its id, route and user.
 */
export interface ArchivingGuard {
  /** A full-level lookup may go ahead: undefined; or why not (the finding, or a finding that cannot be read). */
  refusal(log: Logger): Promise<ApiFailure | undefined>;
  /** The finding read once, with refusal()'s warnings: refusal()'s answer, and whether one stands (accepted or not). */
  finding(log: Logger): Promise<FindingRead>;
  /**
   * Right before a full-level request is sent: refusal() again, and until one of this key's full answers
   * has been read, one such request at a time (archiving-gate.ts: the others wait until `waiting.until`,
   * or until `gone`, then are refused; the service fails the one under way, they are told its failure):
   * a key that archives is seen once, not by every lookup made before its first answer.
   */
  admit(waiting: Waiting, log: Logger, gone?: AbortSignal): Promise<Pass | { ok: false; failure?: ApiFailure; waited?: boolean }>;
  /**
   * Why a full lookup of `who`, waiting since `since` for one of their slots, is held back by the check
   * (their other lookups wait behind it, holding the slots): its failure, or the check still under way;
   * undefined when it holds none of theirs back.
   */
  heldBack(since: number, who: string): ApiFailure | undefined;
  /**
   * A full-level answer arrived for a lookup made at `lookupAtMs`, carrying this willArchiveAtDate (if any);
   * `candidate` names whom it was about (`refId:…`), so that a later lookup of them can be compared with it.
   */
  observe(willArchiveAtDate: unknown, lookupAtMs: number, log: Logger, candidate?: string): Promise<void>;
  /** For /api/meta: undefined until detected (or while the finding cannot be read). */
  state(): Promise<ArchivingKey | undefined>;
  /**
   * A full answer of this key was read whole in this process without a close date: the key does not
   * archive. Until then the queue's crawler sends no full-level request (issue 32): it would otherwise
   * be the one to find out, on a candidate nobody opened (and, with "accept", on every candidate).
   */
  shownSafe(): boolean;
  /**
   * Until then, why the last full lookup that would have shown it did not, when the service is to blame
   * (it could not be reached, did not answer in time, answered an error status); undefined once the service
   * answered one, or none was sent.
   */
  checkFailed(): ApiFailure | undefined;
}

/** `found`: false too when the finding cannot be read (`refusal` says so). */
export interface FindingRead {
  refusal?: ApiFailure;
  found: boolean;
}

/** The right to send one full-level request. */
export interface Pass {
  ok: true;
  /**
   * Its outcome, exactly once: a body is read to its end for willArchiveAtDate, whoever else stops
   * reading it (archive-watch.ts), and the next one let through once it is known. The answer's readers
   * read the copy returned, which ends when `until` (the browser's response) closes.
   */
  watch(outcome: UpstreamOutcome, lookupAtMs: number, until?: http.ServerResponse, candidate?: string): UpstreamBody | undefined;
}

export interface ArchivingGuardOptions {
  accept: boolean;
  /** The environment whose key this is: its name keys the finding, its label is named in the warnings. */
  environment?: Pick<EnvironmentInfo, 'name' | 'label'>;
  /** Its full key, of which only a fingerprint is kept (default: none, for tests). */
  apiKey?: string;
  /** Where findings are kept (default: in this process only). */
  findings?: ArchivingFindings;
  /** How much of an answer nobody else reads is read on for the field (limits.maxResponseBytes; default: no bound, for tests). */
  maxResponseBytes?: number;
  now?: () => number;
}

export function createArchivingGuard(options: ArchivingGuardOptions): ArchivingGuard {
  const now = options.now ?? Date.now;
  const findings = options.findings ?? findingsInStore(createMemoryStore(), () => 'this process only');
  const name = findingName(options.environment?.name ?? 'default', options.apiKey ?? '');
  const finding = keptFinding(findings, name);
  const of = options.environment ? ` of ${options.environment.label}` : '';
  // This process has said so in its log (once, whether it found it or read it).
  let told = false;
  let unreadableTold = false;
  const tell = (log: Logger, line: string) => {
    told = true;
    log.warn(line);
  };
  const gate = createGate();
  const sightings = createSightings();
  const guard: ArchivingGuard = {
    refusal: async (log) => (await guard.finding(log)).refusal,
    async finding(log) {
      let detectedAt: string | undefined;
      try {
        detectedAt = await finding.read();
      } catch (error) {
        // Said once each time it starts failing, not at every refused lookup.
        if (!unreadableTold && !(error instanceof StoreUnavailableError)) log.warn(unreadableWarning(findings.describe(name), error));
        unreadableTold = true;
        return { refusal: unreadable(error), found: false };
      }
      unreadableTold = false;
      if (detectedAt === undefined) return { found: false };
      if (!told) tell(log, recalledWarning(of, detectedAt, findings.describe(name), options.accept));
      return options.accept ? { found: true } : { refusal: refusalOf(), found: true };
    },
    async admit(waiting, log, gone) {
      // Accepted, there is nothing to hold back: each lookup deletes what it shows, as the operator chose.
      const hold = options.accept ? FREE : await gate.enter(waiting, gone);
      if (hold === 'gone') return { ok: false };
      if ('failure' in hold) return { ok: false, ...hold };
      const refused = await guard.refusal(log);
      if (refused) hold.done({ opened: false });
      return refused ? { ok: false, failure: refused } : passOf(guard, hold, options.maxResponseBytes ?? Number.POSITIVE_INFINITY, log);
    },
    heldBack: (since, who) => (options.accept ? undefined : gate.heldBack(since, who)),
    async observe(willArchiveAtDate, lookupAtMs, log, candidate) {
      // A value that is no readable date (a number, "soon", an object) is the signal all the same, its date unknown.
      const at =
        archivesOnExtract(willArchiveAtDate, lookupAtMs) ??
        sightings.moved(candidate, willArchiveAtDate, lookupAtMs) ??
        (archivesWithoutDate(willArchiveAtDate) ? 'unknown' : undefined);
      if (!at || finding.pending()) return;
      let stored: boolean;
      try {
        stored = await finding.record(new Date(now()).toISOString());
      } catch (error) {
        const problem = `It could not be recorded (${describeError(error)}): this instance refuses meanwhile, and tries again.`;
        return tell(log, `${detectedWarning(of, at, lookupAtMs, options.accept)} ${problem}`);
      }
      // Another lookup or instance found it first, and said so.
      if (stored) tell(log, `${detectedWarning(of, at, lookupAtMs, options.accept)} Kept in ${findings.describe(name)}.`);
    },
    async state() {
      const detectedAt = await finding.read().catch(() => undefined);
      return detectedAt === undefined ? undefined : { detectedAt, accepted: options.accept };
    },
    shownSafe: () => gate.isOpen(),
    checkFailed: () => gate.serviceFailure(),
  };
  return guard;
}

/** The pass of the gate's holder (archiving-gate.ts): its outcome ends the hold, a failure of the service told to those behind. */
function passOf(guard: ArchivingGuard, hold: Hold, maxBytes: number, log: Logger): Pass {
  return {
    ok: true,
    watch(outcome, lookupAtMs, until, candidate) {
      if (!outcome.ok) return void hold.done({ opened: false, failure: outcome.failure });
      hold.answering();
      const response = outcome.response;
      // The record ended without the field: the next one may go, while the body is read on (whole, it opens the gate).
      const onAbsent = () => hold.done({ opened: false });
      const onDone = async (scan: Scan) => {
        try {
          if (scan !== null && scan !== undefined) await guard.observe(scan, lookupAtMs, log, candidate);
        } finally {
          // Known not to archive: a body read whole without a close date (an ordinary one is not), nor one that is no date.
          const opened = scan === null || (typeof scan === 'string' && !archivesOnExtract(scan, lookupAtMs) && !archivesWithoutDate(scan));
          // Broken off by the service (a reset, the whole answer's deadline), not by this server (the browser left, too large).
          hold.done({ opened, failure: scan === undefined && response.errored ? brokenOff(response.errored) : undefined });
        }
      };
      return readToTheEnd(response, { maxBytes, until, onDone, onAbsent });
    },
  };
}

/**
 * The finding as this process sees it: found here and not yet recorded (or the store refused it), it is
 * refused here all the same meanwhile, and recorded again at each read until the store takes it.
 */
function keptFinding(findings: ArchivingFindings, name: string) {
  let pending: string | undefined;
  let recording: Promise<boolean> | undefined;
  const recordPending = (): Promise<boolean> => {
    recording ??= findings.record(name, pending!).then(
      (stored) => {
        pending = undefined;
        recording = undefined;
        return stored;
      },
      (error: unknown) => {
        recording = undefined;
        throw error;
      },
    );
    return recording;
  };
  return {
    pending: () => pending !== undefined,
    async read(): Promise<string | undefined> {
      if (pending === undefined) return findings.read(name);
      void recordPending().catch(() => {});
      return pending;
    },
    record(detectedAt: string): Promise<boolean> {
      pending = detectedAt;
      return recordPending();
    },
  };
}

function refusalOf(): ApiFailure {
  return new ApiFailure(
    'archiving_key',
    `This server's KYC API key archives identity data after each full lookup ("archive after extract"): the service deletes a candidate's identity data a set time after it is looked up (seconds, as its documentation recommends, or longer). To keep candidates' data, full lookups are refused. An administrator must configure a key without "archive after extract", or set ${ARCHIVES_ON_EXTRACT_SETTING} for this environment in CONFIG_FILE to look anyway.`,
  );
}

/**
 * Whether the key was found to archive cannot be read: a full lookup does not go ahead blind. Redis down
 * is the store being down (sign-in paused too); a finding's file that cannot be read holds back full
 * lookups only, and says so: sign-in, status-level lookups and the list go on.
 */
function unreadable(error: unknown): ApiFailure {
  if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
  return new ApiFailure(
    'archiving_check_unavailable',
    'Candidate Lookup cannot read its record of whether this API key deletes identity data ("archive after extract"), so full lookups are held back until it can; nothing was asked of the KYC service. An administrator must check the directory of AUDIT_LOG.',
  );
}

function detectedWarning(of: string, at: Date | 'unknown', lookupAtMs: number, accept: boolean): string {
  const when =
    at === 'unknown'
      ? 'carried willArchiveAtDate in a form that is no date (its value is not logged), so the deletion is scheduled at a time not known'
      : `scheduled the candidate's identity data for deletion ${elapsedText(at.getTime() - lookupAtMs)} after the lookup`;
  return (
    `WARNING: the KYC API key${of} archives identity data after each full lookup ("archive after extract"): a full answer ` +
    `${when}. ` +
    (accept
      ? `${ARCHIVES_ON_EXTRACT_SETTING} is set: full lookups go on, and each one deletes what it shows.`
      : `Full lookups are refused from now on (409 archiving_key); use a key without "archive after extract", or set ${ARCHIVES_ON_EXTRACT_SETTING} in CONFIG_FILE.`)
  );
}

function recalledWarning(of: string, detectedAt: string, where: string, accept: boolean): string {
  return (
    `WARNING: the KYC API key${of} archives identity data after each full lookup ("archive after extract"): found at ${detectedAt}, ` +
    `kept in ${where}. ` +
    (accept
      ? `${ARCHIVES_ON_EXTRACT_SETTING} is set: full lookups go on, and each one deletes what it shows.`
      : `Full lookups are refused (409 archiving_key); replace the key with one without "archive after extract" (a new key starts clean), or set ${ARCHIVES_ON_EXTRACT_SETTING} in CONFIG_FILE.`)
  );
}

function unreadableWarning(where: string, error: unknown): string {
  return `The archive-after-extract finding in ${where} cannot be read (${describeError(error)}): full lookups are refused (503 archiving_check_unavailable) until it can.`;
}

function describeError(error: unknown): string {
  if (error instanceof StoreUnavailableError) return 'Redis cannot be reached';
  return (error as NodeJS.ErrnoException).code ?? 'an error';
}
