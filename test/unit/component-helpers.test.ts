import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(import.meta.dirname, '../component');

/**
 * The component files share one module graph per worker (vite.config.ts: isolate false), so a helper module
 * is evaluated once, by the first file that imports it: a hook it registers at its top level runs for that
 * file only. wait-clock.ts restored the fake clock that way, and the clock of the second file to use it
 * outlived its tests: a countdown in a later file never moved, and waitFor, whose polling is a setInterval,
 * no longer saw a change that was not in the DOM (the history's Back, a request sent). Hooks go in
 * setup.ts (run for every file) or in a function the test file calls.
 */
describe("the component tests' shared helpers", () => {
  it('register no hook at their top level: setup.ts, evaluated for every file, is the one place', () => {
    const helpers = readdirSync(dir).filter((name) => /\.tsx?$/.test(name) && !name.includes('.test.') && name !== 'setup.ts');
    expect(helpers.length).toBeGreaterThan(3);
    const withHooks = helpers.filter((name) =>
      /^(?:beforeAll|beforeEach|afterAll|afterEach)\(/m.test(readFileSync(path.join(dir, name), 'utf8')),
    );
    expect(withHooks).toEqual([]);
  });
});
