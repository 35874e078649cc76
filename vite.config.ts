import type { BuildEnvironmentOptions, Plugin, Rolldown } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { candidateLookupApi } from './src/server/composition/vite-plugin.ts';

const serverBuild: BuildEnvironmentOptions = {
  outDir: 'dist/server',
  emptyOutDir: true,
  copyPublicDir: false,
  target: 'node20',
  rolldownOptions: {
    input: {
      main: 'src/server/main.ts',
      sandbox: 'src/server/sandbox/main.ts',
      'user-add': 'src/server/cli/user-add.ts',
      'audit-verify': 'src/server/cli/audit-verify-cli.ts',
      // Not an entry one runs: the preview processes' program (answer/preview-pool.ts starts them).
      'preview-child': 'src/server/answer/preview-child.mjs',
      'audit-import': 'src/server/cli/audit-import-cli.ts',
    },
  },
};

/**
 * The first load in one file. Left to itself, rolldown puts each module that the home page shares with a
 * lazy page (api-error.ts, visited.ts, TanStack Query's core…) in a chunk of its own: ten modulepreloads of
 * 0.1 to 3 kB beside the entry, each compressed with a dictionary of its own and joined by imports and
 * exports, 3.8 kB (gzip) of a 101.9 kB first load. Every module the entry loads statically (`$initial`)
 * goes in the entry's chunk instead, and a lazy page imports what it shares with it from there, already
 * loaded. Only rolldown's runtime (0.5 kB) stays apart: no group can take it.
 */
const firstLoadInOneChunk: Rolldown.CodeSplittingGroup = {
  name: 'index',
  tags: ['$initial'],
  test: (id) => !/[\\/]test[\\/]bench[\\/]/.test(id),
};

/**
 * The bench's baseline page is an entry of its own that shares only Vite's modulepreload polyfill with the
 * app. In the group above, the polyfill would make the baseline import the app's chunk, which starts the
 * app on a page without its root: so in that build the polyfill keeps a chunk of its own, as before.
 */
const benchBaseline: BuildEnvironmentOptions['rolldownOptions'] = {
  input: { index: 'index.html', baseline: 'test/bench/baseline.html' },
  output: {
    codeSplitting: {
      groups: [{ name: 'modulepreload-polyfill', test: /^\0vite[\\/]modulepreload-polyfill/, priority: 1 }, firstLoadInOneChunk],
    },
  },
};

const clientBuild: BuildEnvironmentOptions = {
  outDir: 'dist/client',
  emptyOutDir: true,
  // `npm run bench` builds a copy with its baseline page beside the app (never in a normal build).
  rolldownOptions: process.env.BENCH_BASELINE ? benchBaseline : { output: { codeSplitting: { groups: [firstLoadInOneChunk] } } },
};

/**
 * react-zoom-pan-pinch injects its stylesheet as a <style> element, which the app's Content-Security-Policy
 * (style-src 'self') refuses with a console error. The viewer carries the few rules it needs in its own
 * classes, so the injection is dropped from the library's module.
 */
const noZoomLibraryStyleInjection: Plugin = {
  name: 'candidate-lookup:no-zoom-library-style-injection',
  transform(code, id) {
    if (!id.includes('/react-zoom-pan-pinch/dist/')) return null;
    return code.replace(/^styleInject\(css_\w+\);$/m, '');
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  // The API plugin starts the sandbox upstream: not wanted while Vitest runs the unit suites.
  plugins: [react(), tailwindcss(), noZoomLibraryStyleInjection, ...(process.env.VITEST ? [] : [candidateLookupApi()])],
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  build: isSsrBuild ? serverBuild : clientBuild,
  test: {
    // Vitest's default on 2 cores is a single worker (cores - 1): most files wait on sockets and timers
    // rather than the CPU, so two run side by side. Forks, each server file isolated (the
    // default): a file's module state (vi.mock, a sandbox's memo, a server's metrics) never reaches another.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // Pure functions, no module mocks: one module graph per worker (user time 31 s -> 20 s here).
          isolate: false,
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude],
          // Thousands of generated cases in a test take seconds once two busy processes share the cores
          // (`.ci/run` runs these files so once more): Vitest's 5 s is for a quiet machine.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude],
          testTimeout: 20_000,
          // A file's beforeAll starts its servers (OpenID providers with their RSA keys, instances, redis-server):
          // seconds of CPU once the cores are shared, and Vitest's 10 s for a hook is for a quiet machine.
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['test/component/**/*.test.tsx'],
          exclude: [...configDefaults.exclude],
          setupFiles: ['test/component/setup.ts'],
          // One jsdom and one module graph per worker, not per file: a file's own setup (setup.ts's afterEach
          // clears the page, recent lookups and storage) is what keeps files apart. It halves the CPU these
          // files take (user time 122 s -> 73 s here), most of it jsdom's start and React's import per file.
          isolate: false,
          // Several user steps through the whole app in jsdom: more than 5 s when other suites share the cores.
          testTimeout: 20_000,
          // setup.ts's beforeAll imports the candidate page and the viewer: the first file of a worker pays
          // their transform, which took over Vitest's 10 s for a hook with a load of 15 on the two cores.
          hookTimeout: 20_000,
        },
      },
    ],
  },
}));
