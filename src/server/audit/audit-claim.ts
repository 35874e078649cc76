import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile, unlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * One writer per audit file. Two instances appending to one file (two servers started in one working
 * directory, both on the default AUDIT_LOG) each chain their lines to their own last line, so the chain
 * breaks at every turn and the audit page shows every row after the first break as not vouched for. The
 * instance that writes a file says so in a claim file beside it, and a second instance refuses to start.
 *
 * A claim is no longer held (stale) when its process is gone: on this host (same boot, same pid namespace)
 * when its pid no longer runs or now belongs to a process started at another time (a restarted
 * container's pid 1 is ours again); elsewhere (another container on a shared volume) when it has not been
 * refreshed for STALE_MS. An audit file with a second name (a hard link) is refused: its claim would be
 * beside one name only. No library did this: proper-lockfile (4.1.2) judges by refresh time alone, so a
 * restart after a crash would wait for it, and it cannot say which process holds the file.
 */

/** How often the holder refreshes its claim (its modification time). */
export const REFRESH_MS = 10_000;
/** A claim not refreshed for this long is stale wherever it was made. */
export const STALE_MS = 30_000;

/** What a claim file holds: who writes the audit file, and what tells that process from a later one with its pid. */
export interface ClaimHolder {
  pid: number;
  host: string;
  /** When the claim was made (ISO 8601). */
  since: string;
  /** This claim's own id: the holder removes or refreshes only its own. */
  token: string;
  /** Set where /proc tells them (Linux): the process's start in clock ticks after boot, the boot, the pid namespace. */
  startTicks?: string;
  bootId?: string;
  pidNamespace?: string;
}

export interface AuditClaim {
  /** The claim file, beside the audit file. */
  file: string;
  /** Stops refreshing and removes the claim if it is still this instance's. */
  release(): Promise<void>;
}

/**
 * The claim file of an audit file: a dot file beside it, a name that neither logrotate's usual patterns
 * nor the audit files' own reader (`audit.jsonl.1`, `audit.jsonl-20261122`) take for a rotated file.
 */
export function claimFileOf(auditFile: string): string {
  const resolved = path.resolve(auditFile);
  return path.join(path.dirname(resolved), `.${path.basename(resolved)}.lock`);
}

/** Errors that say the claim file cannot be made where the audit file is (a directory the app may not write). */
const CANNOT_CREATE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Claims the audit file for this process, or says why it cannot: another process holds it (its pid,
 * host and since when), the file has another name (a hard link), or no claim file can be made beside it (`unclaimed`: a writable audit file in a
 * directory the app may not write, as a file bind-mounted into a read-only container; the server starts
 * as it did before claims, and says the check is off). `onLost` is told once if the claim is found to be
 * someone else's later on. `create` is how the claim file is made (the tests give one that fails as a
 * directory the app may not write does, which a test run as root cannot otherwise meet).
 */
export function claimAuditFile(
  auditFile: string,
  onLost: (message: string) => void,
  refreshMs = REFRESH_MS,
  create: typeof writeFileSync = writeFileSync,
): AuditClaim | { refused: string } | { unclaimed: string } {
  const linked = hardLinkRefusal(auditFile);
  if (linked) return { refused: linked };
  const file = claimFileOf(auditFile);
  const mine = ownClaim();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      create(file, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o600 });
      return { file, release: keepClaim(file, mine, onLost, refreshMs) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (CANNOT_CREATE.has(code)) return { unclaimed: unclaimedMessage(auditFile, file, code) };
      if (code !== 'EEXIST') throw error;
    }
    const found = readClaim(file);
    if (found === undefined) continue; // removed meanwhile: try again
    if (!isStale(found.holder, found.mtimeMs)) return { refused: refusal(auditFile, file, found.holder) };
    // Removed only if it is still the stale one read: another instance starting now may have replaced it.
    if (readClaim(file)?.text === found.text) unlinkSync(file);
  }
  return { refused: refusal(auditFile, file, undefined) };
}

/**
 * A claim is made beside the name it was given, so the same file under another name (a hard link in
 * another directory) has a claim file of its own, and a second instance given that name wrote the first's
 * file (red-team finding). An audit file needs no second name: one with more is refused at start.
 */
function hardLinkRefusal(auditFile: string): string | undefined {
  let links: number;
  try {
    links = statSync(auditFile).nlink;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (links <= 1) return undefined;
  const resolved = path.resolve(auditFile);
  return (
    `AUDIT_LOG=${resolved} has ${links} names (hard links): the same file under another name may be another instance's AUDIT_LOG, ` +
    'and a claim beside one name does not stop a writer under another.\n' +
    '  Two instances writing one audit file break each other\'s hash chain, and the audit page then shows their lines as "not vouched for".\n' +
    `  Remove its other names (find them with: find / -xdev -samefile ${resolved}), or give each instance its own AUDIT_LOG.`
  );
}

function unclaimedMessage(auditFile: string, file: string, code: string): string {
  return (
    `AUDIT_LOG=${auditFile}: the claim file ${file} cannot be made beside it (${code}: the directory is not ` +
    'writable for this server), so nothing stops a second instance from writing this audit log too and ' +
    'breaking its hash chain. Give each instance its own AUDIT_LOG, or let the server write its directory.'
  );
}

function ownClaim(): ClaimHolder {
  const startTicks = startTicksOf(process.pid);
  return {
    pid: process.pid,
    host: os.hostname(),
    since: new Date().toISOString(),
    token: randomUUID(),
    ...(startTicks && { startTicks }),
    ...hostFacts(),
  };
}

/** What Linux tells of this boot and this process's pid namespace (nothing elsewhere). */
function hostFacts(): Pick<ClaimHolder, 'bootId' | 'pidNamespace'> {
  const bootId = readOrUndefined(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const pidNamespace = readOrUndefined(() => readlinkSync('/proc/self/ns/pid'));
  return { ...(bootId && { bootId }), ...(pidNamespace && { pidNamespace }) };
}

/** When a process started, in clock ticks after boot (Linux; undefined elsewhere, or when it is gone). */
function startTicksOf(pid: number): string | undefined {
  return statFieldsOf(pid)?.[19];
}

/**
 * The fields of /proc/<pid>/stat from the 3rd on (Linux; undefined elsewhere, or when it is gone): the
 * command name (2nd field) may hold spaces and parentheses, the fields after its last ')' are plain. The
 * first is the state (R, S, Z…), the 20th the start time (the 22nd field).
 */
function statFieldsOf(pid: number): string[] | undefined {
  const stat = readOrUndefined(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function readOrUndefined(read: () => string): string | undefined {
  try {
    return read() || undefined;
  } catch {
    return undefined;
  }
}

function readClaim(file: string): { holder: ClaimHolder | undefined; text: string; mtimeMs: number } | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    const { mtimeMs } = statSync(file);
    let holder: ClaimHolder | undefined;
    try {
      const parsed = JSON.parse(text) as ClaimHolder;
      holder = typeof parsed?.pid === 'number' && typeof parsed.host === 'string' ? parsed : undefined;
    } catch {
      holder = undefined;
    }
    return { holder, text, mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether the claim's process is gone (see the top of this file). A claim that cannot be read is judged by its age. */
function isStale(holder: ClaimHolder | undefined, mtimeMs: number, now = Date.now()): boolean {
  if (now - mtimeMs > STALE_MS) return true;
  if (holder === undefined || holder.host !== os.hostname()) return false;
  const here = hostFacts();
  if (holder.bootId && here.bootId && holder.bootId !== here.bootId) return true;
  // Another pid namespace on this host (another container): its pids mean nothing here.
  if (holder.pidNamespace && here.pidNamespace && holder.pidNamespace !== here.pidNamespace) return false;
  // Our own pid: an earlier process's (a restarted container's pid 1), or this process's own, when the dev
  // server restarts and its new API starts before the old one has closed.
  if (holder.pid === process.pid) return true;
  if (!isRunning(holder.pid)) return true;
  // Its pid runs, but a process started at another time has it now.
  const started = startTicksOf(holder.pid);
  return Boolean(holder.startTicks && started && holder.startTicks !== started);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed but not yet reaped by its parent (a zombie, state Z) still answers kill(pid, 0), for
  // about a second after a SIGKILL under npm or a shell: it writes nothing more, so the restart may take it.
  return statFieldsOf(pid)?.[0] !== 'Z';
}

function refusal(auditFile: string, claimFile: string, holder: ClaimHolder | undefined): string {
  const who = holder
    ? `another Candidate Lookup instance writes it: pid ${holder.pid} on host ${holder.host}, since ${holder.since}`
    : `its claim file cannot be read, and was written less than ${STALE_MS / 1000} s ago (another instance may be starting on it now)`;
  return (
    `AUDIT_LOG=${path.resolve(auditFile)} is in use: ${who} (claim file ${claimFile}).\n` +
    '  Two instances writing one audit file break each other\'s hash chain, and the audit page then shows their lines as "not vouched for".\n' +
    '  Give each instance its own AUDIT_LOG (and AUDIT_INSTANCE). A claim whose process no longer runs on this host is ignored at once,\n' +
    `  one from another host once it has not been refreshed for ${STALE_MS / 1000} s.`
  );
}

/** Refreshes the claim every `refreshMs` (REFRESH_MS; tests shorten it) while it is this instance's; the returned function releases it. */
function keepClaim(file: string, mine: ClaimHolder, onLost: (message: string) => void, refreshMs: number): () => Promise<void> {
  const text = `${JSON.stringify(mine)}\n`;
  let busy = false;
  let lost = false;
  const refresh = async () => {
    const found = await readFile(file, 'utf8').catch(() => undefined);
    if (found === text) {
      const now = new Date();
      await utimes(file, now, now);
    } else if (found === undefined) {
      // Removed by hand: said again, so that a second instance still finds it.
      await writeFile(file, text, { flag: 'wx', mode: 0o600 });
    } else if (!lost) {
      lost = true;
      onLost(`The claim on the audit file (${file}) is now another instance's: ${found.trim()}. Give each instance its own AUDIT_LOG.`);
    }
  };
  const timer = setInterval(() => {
    if (busy) return; // a refresh that hangs (a dead mount) is not piled up
    busy = true;
    void refresh()
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, refreshMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    const found = await readFile(file, 'utf8').catch(() => undefined);
    if (found === text) await unlink(file).catch(() => {});
  };
}
