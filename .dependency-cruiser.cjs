/**
 * The import rules of the browser app and of the server (docs/architecture.md), checked by `npm test`
 * (`depcruise src`). The rules between src/app, src/server and src/kyc are test/unit/architecture.test.ts's.
 *
 * Folders of src/app, by what they may import:
 * - `api/`: the app's calls to /api (src/kyc only);
 * - `ui/`: primitives (src/kyc and other primitives, never a feature or a shared module);
 * - shared modules: app-wide state and parts several pages use; they import ui/, api/, src/kyc and
 *   each other, never a feature;
 * - features: a page and what only it needs; they import ui/, api/, src/kyc, shared modules, and of
 *   another feature only the entry it declares below, never its internals;
 * - the app itself (app.tsx, main.tsx, layout/): composes all of it.
 */
const SHARED = ['environment', 'handoff', 'live', 'meta', 'preferences', 'recent', 'session', 'viewer'];

/** Each feature, and the files of it another feature may import. */
const FEATURES = {
  // The candidate page finds its place in the queue it was opened from (Previous, Next, Back to queue).
  applicants: ['queue-place.ts'],
  audit: [],
  // The candidate page finds its place among the found rows of the batch it was opened from (the same keys).
  batch: ['batch-place.ts'],
  // The search box starts a lookup with the candidate page's module, loaded when the browser is idle; the
  // audit page, the applicants list and the batch page count a refusal's wait down (and hold their retry)
  // as the candidate page's error screens do.
  candidate: ['page-load.ts', 'retry-wait.tsx'],
  lookup: [],
};

const FEATURE_NAMES = Object.keys(FEATURES);
const any = (names) => `(${names.join('|')})`;
const entries = Object.entries(FEATURES).flatMap(([feature, files]) =>
  files.map((file) => `src/app/${feature}/${file.replace('.', '[.]')}$`),
);

/**
 * The server's folders, top to bottom. A folder imports its own files and the folders of the layers below
 * its own, never a folder above it nor another folder of its layer. Above them all, and imported by none,
 * src/server/main.ts: what `npm start` runs.
 */
const SERVER_LAYERS = [
  ['composition', 'cli'], //                 the composition root: the API handler, its routes and environments, the servers; the command-line tools
  ['live'], //                               the webhook receiver, the live hub, event streams, presence
  ['lookup', 'trail'], //                    lookups, the queue, batch, export; the audit trail as the app reads it
  ['archiving'], //                          the archive-after-extract gate and its findings
  ['upstream', 'auth', 'ops', 'sandbox'], // the request to the KYC service; sign-in; health, metrics, rate limits; the sandbox
  ['answer', 'audit', 'config'], //          the one read of an answer; the hash-chained audit log; the configuration
  ['http'], //                               routes, guards, replies, the one error type, client addresses
  ['state', 'log'], //                       Redis or memory, PostgreSQL; the one logger
];
const SERVER_FOLDERS = SERVER_LAYERS.flat();

/** One rule per layer: its folders import only their own files and the layers below. */
const serverLayerRules = SERVER_LAYERS.map((folders, i) => {
  const below = SERVER_LAYERS.slice(i + 1).flat();
  return {
    name: `server-layer-${folders.join('-')}`,
    severity: 'error',
    comment: `src/server/${folders.join('/, ')}/ import only ${below.length ? `${below.join('/, ')}/` : 'their own files'} (SERVER_LAYERS).`,
    from: { path: `^src/server/${any(folders)}/` },
    to: { path: '^src/server/', pathNot: ['^src/server/$1/', ...(below.length ? [`^src/server/${any(below)}/`] : [])] },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, however far round: the layers above cannot hold.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'api-imports-kyc-only',
      severity: 'error',
      comment: "The API layer knows the contract, not the app's pages or state.",
      from: { path: '^src/app/api/' },
      to: { path: '^src/app/', pathNot: '^src/app/api/' },
    },
    {
      name: 'ui-imports-no-feature',
      severity: 'error',
      comment: 'A primitive of ui/ imports other primitives and src/kyc only: no feature, no shared module.',
      from: { path: '^src/app/ui/' },
      to: { path: '^src/app/', pathNot: '^src/app/ui/' },
    },
    {
      name: 'shared-imports-no-feature',
      severity: 'error',
      comment: 'A shared module is used by features; it never depends on one, nor on the app that composes them.',
      from: { path: `^src/app/${any(SHARED)}/` },
      to: { path: [`^src/app/${any([...FEATURE_NAMES, 'layout'])}/`, '^src/app/(app|main)[.]tsx$'] },
    },
    {
      name: 'feature-imports-no-other-feature-internals',
      severity: 'error',
      comment: "A feature imports ui/, api/, src/kyc, shared modules and another feature's declared entry (FEATURES), never its internals.",
      from: { path: `^src/app/(${FEATURE_NAMES.join('|')})/` },
      to: {
        path: [`^src/app/${any([...FEATURE_NAMES, 'layout'])}/`, '^src/app/(app|main)[.]tsx$'],
        pathNot: ['^src/app/$1/', ...entries],
      },
    },
    {
      name: 'every-folder-has-a-place',
      severity: 'error',
      comment: 'A new folder of src/app is one of api/, ui/, a shared module, a feature or layout/: add it to this file.',
      from: { path: '^src/app/' },
      to: { path: '^src/app/[^/]+/', pathNot: `^src/app/${any(['api', 'ui', 'layout', ...SHARED, ...FEATURE_NAMES])}/` },
    },
    ...serverLayerRules,
    {
      name: 'every-server-folder-has-a-layer',
      severity: 'error',
      comment: 'A new folder of src/server takes its place in SERVER_LAYERS (and docs/architecture.md draws it there).',
      from: { path: '^src/server/' },
      to: { path: '^src/server/[^/]+/', pathNot: `^src/server/${any(SERVER_FOLDERS)}/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
