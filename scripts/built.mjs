// @ts-check
// Builds the app when dist/ is missing or older than its sources, then runs one of the built entries.
// Used by `npm start` (server), `npm run sandbox` (sandbox), `npm run user:add` (user-add) and
// `npm run audit:verify` (audit-verify) and `npm run audit:import` (audit-import).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** @type {Record<string, string>} */
const entries = {
  server: 'dist/server/main.js',
  sandbox: 'dist/server/sandbox.js',
  'user-add': 'dist/server/user-add.js',
  'audit-verify': 'dist/server/audit-verify.js',
  'audit-import': 'dist/server/audit-import.js',
};
const name = process.argv[2] ?? '';
const entry = entries[name];
if (!entry && name !== 'build') {
  console.error(`usage: node scripts/built.mjs ${[...Object.keys(entries), 'build'].join('|')} [args]`);
  process.exit(2);
}

/**
 * @param {string} target a file or a folder
 * @returns {number}
 */
function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', 'package-lock.json']
  .map((name) => path.join(root, name))
  .filter((name) => existsSync(name));
const outputs = [path.join(root, 'dist/client/index.html'), ...Object.values(entries).map((e) => path.join(root, e))];
const stale =
  !outputs.every((output) => existsSync(output)) ||
  Math.min(...outputs.map((output) => statSync(output).mtimeMs)) < Math.max(...sources.map(newestMtime));

if (stale) {
  console.error('Building Candidate Lookup (sources changed since the last build)…');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  const ssr =
    build.status === 0 &&
    spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
  if (build.status !== 0 || !ssr || ssr.status !== 0) {
    console.error('Build failed.');
    process.exit(1);
  }
}

if (entry) {
  // The entry sees its own arguments only, as if run directly.
  process.argv.splice(2, 1);
  await import(path.join(root, entry));
}
