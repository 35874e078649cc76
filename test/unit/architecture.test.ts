import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTILE_REF_ID, PAYLOADS } from '../fixtures/hostile-candidate.mjs';
import { SANDBOX_CLIENT_ID } from '../../src/server/sandbox/sandbox.ts';

/** The one direction of imports (architecture.md): kyc knows nothing else; app and server never meet. */
const src = path.resolve(import.meta.dirname, '../../src');

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(path.join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [path.join(dir, entry.name)] : [],
  );
}

function importsOf(file: string): string[] {
  return [
    ...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm),
  ].map((m) => m[1] ?? m[2]!);
}

function resolvedParts(file: string) {
  return importsOf(file).map((spec) => ({
    spec,
    area: spec.startsWith('.') ? path.relative(src, path.resolve(path.dirname(file), spec)).split(path.sep)[0] : undefined,
  }));
}

describe('import direction', () => {
  it('src/kyc imports neither the app, the server, Node nor the DOM-only libraries', () => {
    for (const file of filesOf(path.join(src, 'kyc'))) {
      for (const { spec, area } of resolvedParts(file)) {
        expect(area === 'app' || area === 'server', `${file} imports ${spec}`).toBe(false);
        expect(spec.startsWith('node:'), `${file} imports ${spec}`).toBe(false);
        expect(['react', 'react-dom'].includes(spec), `${file} imports ${spec}`).toBe(false);
      }
    }
  });

  it('src/app never imports src/server or Node, and src/server never imports src/app', () => {
    for (const file of filesOf(path.join(src, 'app'))) {
      for (const { spec, area } of resolvedParts(file)) {
        expect(area === 'server' || spec.startsWith('node:'), `${file} imports ${spec}`).toBe(false);
      }
    }
    for (const file of filesOf(path.join(src, 'server'))) {
      for (const { spec, area } of resolvedParts(file)) expect(area === 'app', `${file} imports ${spec}`).toBe(false);
    }
  });

  it('src/server imports only the contract half of src/kyc, never its display helpers', () => {
    for (const file of filesOf(path.join(src, 'server'))) {
      for (const { spec } of resolvedParts(file)) {
        const target = path.relative(src, path.resolve(path.dirname(file), spec));
        expect(
          target.startsWith(`kyc${path.sep}`) && !target.startsWith(`kyc${path.sep}contract${path.sep}`),
          `${file} imports ${spec}`,
        ).toBe(false);
      }
    }
  });

  it('the contract half of src/kyc never imports the view half', () => {
    for (const file of filesOf(path.join(src, 'kyc', 'contract'))) {
      for (const { spec } of resolvedParts(file)) {
        expect(path.resolve(path.dirname(file), spec).includes(`${path.sep}kyc${path.sep}view${path.sep}`), `${file} imports ${spec}`).toBe(
          false,
        );
      }
    }
  });

  it("src/server's top level holds its folders and one file, the entry point (the folders' order is .dependency-cruiser.cjs's)", () => {
    const files = readdirSync(path.join(src, 'server'), { withFileTypes: true }).filter((entry) => !entry.isDirectory());
    expect(files.map((entry) => entry.name)).toEqual(['main.ts']);
  });

  it('no barrel index files', () => {
    expect(filesOf(src).filter((file) => /\/index\.tsx?$/.test(file))).toEqual([]);
  });
});

describe('size', () => {
  // Function length is Biome's noExcessiveLinesPerFunction (biome.json); file length is checked here.
  it('no source file in src/ is over 300 lines', () => {
    const long = filesOf(src)
      .map((file) => ({ file: path.relative(src, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 300);
    expect(long).toEqual([]);
  });
});

describe('the production build of the server', () => {
  it('carries the sandbox but none of the hostile test candidate', { timeout: 120_000 }, () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'cl-server-build-'));
    try {
      // The same command as `npm run build` (its server half), into a folder of its own.
      const vite = path.resolve(src, '../node_modules/vite/bin/vite.js');
      execFileSync(process.execPath, [vite, 'build', '--ssr', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
        cwd: path.resolve(src, '..'),
        stdio: 'pipe',
      });
      const files = readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      const text = files.map((entry) => readFileSync(path.join(entry.parentPath, entry.name), 'utf8')).join('\n');
      expect(text.includes(SANDBOX_CLIENT_ID), 'the sandbox is in the build').toBe(true);
      const found = [HOSTILE_REF_ID, ...PAYLOADS, 'window.__pwned'].filter((hostile) => text.includes(hostile));
      expect(found, 'hostile strings in the server build').toEqual([]);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('calls to the API', () => {
  it('go through the API layer (apiRequest), which sends the header the server requires of the app (no bare fetch elsewhere in src/app)', () => {
    for (const file of filesOf(path.join(src, 'app'))) {
      if (file.endsWith(`${path.sep}app${path.sep}api${path.sep}api-request.ts`)) continue;
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/(?<![\w.])fetch\(|window\.fetch|globalThis\.fetch|XMLHttpRequest|EventSource/);
    }
  });
});
