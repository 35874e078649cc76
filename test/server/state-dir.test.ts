import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiFromConfig, describeState } from '../../src/server/composition/api.ts';
import { parseConfig } from '../../src/server/config/config.ts';

/**
 * Without AUDIT_LOG the server wrote audit.jsonl and its archive-after-extract findings into the working
 * directory, for a developer the project root, where an unformatted finding file then failed `npm
 * test`'s Biome check. Its state now has one default directory, ignored by git and so by Biome.
 */
const root = path.resolve(import.meta.dirname, '../..');
const startedIn = process.cwd();
afterEach(() => process.chdir(startedIn));

describe('with no AUDIT_LOG set, the audit log and archive findings are written into the current directory', () => {
  it('keeps them in one directory of its own instead, made at start, named in a line at start', async () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'cl-state-dir-')));
    try {
      process.chdir(dir);
      const config = parseConfig({ KYC_BASE_URL: 'http://127.0.0.1:9', KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' });
      const api = createApiFromConfig(config, { environments: [], banner: [], close: async () => {} });
      await api.close();
      expect(readdirSync(dir)).toEqual(['.candidate-lookup']);
      expect(statSync(path.join(dir, '.candidate-lookup')).mode & 0o777).toBe(0o700);
      expect(readdirSync(path.join(dir, '.candidate-lookup'))).toEqual(['audit.jsonl']);
      // The findings go beside the audit log (without Redis): said at start, with the full path.
      expect(describeState(config)).toBe(
        `State: audit log ${dir}/.candidate-lookup/audit.jsonl, archive-after-extract findings beside it ` +
          `(AUDIT_LOG not set: the default directory ${dir}/.candidate-lookup, made if missing).`,
      );
    } finally {
      process.chdir(startedIn);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('that directory is ignored by git, and so by Biome (which follows .gitignore)', () => {
    const finding = '.candidate-lookup/archiving-key-default-0123456789abcdef.json';
    expect(execFileSync('git', ['check-ignore', finding], { cwd: root, encoding: 'utf8' }).trim()).toBe(finding);
    expect(JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8')).vcs.useIgnoreFile).toBe(true);
  });

  it('an AUDIT_LOG that is set is used as it is, with no directory of its own', () => {
    const config = parseConfig({ AUDIT_LOG: '/var/lib/candidate-lookup/audit.jsonl' });
    expect(config.defaultStateDir).toBeUndefined();
    expect(describeState(config)).toBe('State: audit log /var/lib/candidate-lookup/audit.jsonl, archive-after-extract findings beside it.');
  });
});
