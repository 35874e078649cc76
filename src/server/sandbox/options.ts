import type { SandboxSettings } from '../config/config.ts';
import type { SandboxCandidate } from './candidates.ts';

/**
 * The sandbox's candidates. Loaded on demand: a server with a real upstream never loads the sandbox's
 * pictures, fonts and people at all.
 */
export async function loadSandboxCandidates(sandbox: SandboxSettings, now = new Date()): Promise<SandboxCandidate[]> {
  const { queueCandidates } = await import('./queue-candidates.ts');
  const candidates = sandbox.dataFile
    ? (await import('./data-file.ts')).loadSandboxData(sandbox.dataFile)
    : [
        ...(await (await import('./candidates.ts')).sampleCandidates({ now, largeImages: sandbox.largeImages })),
        // Enough candidates for the applicants list to have pages.
        ...(sandbox.largeImages ? await queueCandidates(now) : []),
      ];
  if (!sandbox.hostile) return candidates;
  const { loadHostileCandidate } = await import('./hostile-fixture.ts');
  return [...candidates, await loadHostileCandidate()];
}

/**
 * The sandbox's options as configured: its candidates, the archive-after-extract demonstration, the list's
 * shape. A data file replaces the built-in candidates wholly, the demonstration too: a team's own Waiting
 * tab showed one stranger, `archive-after-extract-demo`. The archive key still answers, and dates the
 * file's candidates as it does every candidate but the demonstration.
 */
export async function sandboxOptions(sandbox: SandboxSettings, now = new Date()) {
  const { archiveDemoCandidates } = await import('./queue-candidates.ts');
  return {
    candidates: await loadSandboxCandidates(sandbox, now),
    archiveKeyCandidates: sandbox.dataFile ? [] : await archiveDemoCandidates(now),
    ...(sandbox.listShape ? { listShape: sandbox.listShape } : {}),
  };
}
