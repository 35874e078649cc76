import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it('no barrel index files', () => {
    expect(filesOf(src).filter((file) => /\/index\.tsx?$/.test(file))).toEqual([]);
  });
});
