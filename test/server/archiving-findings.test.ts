import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findingsInDirectory } from '../../src/server/archiving/archiving-findings.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function directory() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-findings-'));
  dirs.push(dir);
  return dir;
}
const NAME = 'archiving-key-default-0123456789abcdef';

describe('findings kept in files, without Redis', () => {
  it('reads a finding left by an earlier run, and does not read the disk again at every lookup', async () => {
    const dir = directory();
    writeFileSync(path.join(dir, `${NAME}.json`), '{"detectedAt":"2026-11-20T10:00:00.000Z"}\n');
    let time = 0;
    const findings = findingsInDirectory(dir, () => time);
    expect(await findings.read(NAME)).toBe('2026-11-20T10:00:00.000Z');
    // The operator deletes it: believed for up to a second, then seen gone.
    rmSync(path.join(dir, `${NAME}.json`));
    time = 900;
    expect(await findings.read(NAME)).toBe('2026-11-20T10:00:00.000Z');
    time = 1100;
    expect(await findings.read(NAME)).toBeUndefined();
  });

  it('knows none until this process records one, then at once, on disk too', async () => {
    const dir = directory();
    const findings = findingsInDirectory(dir, () => 0);
    expect(await findings.read(NAME)).toBeUndefined();
    // Only this process writes these files (several instances share findings through Redis): a file
    // appearing behind its back is not read at every lookup.
    writeFileSync(path.join(dir, `${NAME}.json`), '{"detectedAt":"2026-11-20T10:00:00.000Z"}\n');
    expect(await findings.read(NAME)).toBeUndefined();
    rmSync(path.join(dir, `${NAME}.json`));
    expect(await findings.record(NAME, '2026-11-24T10:00:00.000Z')).toBe(true);
    expect(await findings.read(NAME)).toBe('2026-11-24T10:00:00.000Z');
    expect(existsSync(path.join(dir, `${NAME}.json`))).toBe(true);
    // Recorded already (by another run): the first one stays, and is read from the file.
    expect(await findingsInDirectory(dir, () => 0).record(NAME, '2026-11-25T10:00:00.000Z')).toBe(false);
  });
});
