// @ts-check
// A certificate's raw JSON view, laid out in Chromium from the bundled modules: the layout as it was
// (stringifyKeepingNumbers, a JavaScript walk, for every certificate) against the one now
// (layOutCertificate: JSON.stringify where no number's text was kept). `npm run bench -- --certificate`
// runs it alone; every run ends with it too. Each certificate is read once, then laid out by both, turn
// about, so that both meet the same load; each figure is a median.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'rolldown';
import { chromiumLaunchOptions } from './chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');

/** @typedef {{ name: string; values: number; numbers: string; beforeMs: number; afterMs: number; same: boolean }} CertificateFigure */

/** The modules the page uses, bundled as the app bundles them, into one script that sets `window.certificateBench`. */
async function bundle() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-certificate-'));
  const entry = path.join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { stringifyKeepingNumbers } from ${JSON.stringify(path.join(root, 'src/kyc/contract/number-text.ts'))};
import { layOutCertificate, parseCertificate } from ${JSON.stringify(path.join(root, 'src/kyc/view/certificate.ts'))};
Object.assign(window, { certificateBench: { stringifyKeepingNumbers, layOutCertificate, parseCertificate } });\n`,
  );
  const { output } = await build({
    input: entry,
    platform: 'browser',
    write: false,
    output: { format: 'iife', minify: true },
    logLevel: 'silent',
  });
  rmSync(dir, { recursive: true });
  return output[0].code;
}

/**
 * The certificates: a million small numbers, 200,000 objects, a million `1e21` (past the bound: read
 * plainly) and 49,999 `1e21` (under it: each text kept, so both lay it out with the walk).
 */
const CASES = [
  { name: '1M small ints', kind: 'ints', count: 1_000_000 },
  { name: '200k objects', kind: 'objects', count: 200_000 },
  { name: '1M × 1e21', kind: 'exponents', count: 1_000_000 },
  { name: '49,999 × 1e21 (texts kept)', kind: 'exponents', count: 49_999 },
];

/**
 * @param {{ quick: boolean; log: (...args: unknown[]) => void }} options
 * @returns {Promise<CertificateFigure[]>}
 */
export async function runCertificateBench({ quick, log }) {
  log('A certificate’s layout…');
  const script = await bundle();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>certificate layout</title>');
    await page.addScriptTag({ content: script });
    const rounds = quick ? 1 : 5;
    /** @type {CertificateFigure[]} */
    const figures = [];
    for (const each of CASES) figures.push(await page.evaluate(layOutInPage, { ...each, rounds }));
    return figures;
  } finally {
    await browser.close();
  }
}

/**
 * In the page: one certificate made, read, and laid out before and after, alternating which goes first.
 * @param {{ name: string; kind: string; count: number; rounds: number }} spec
 * @returns {CertificateFigure}
 */
function layOutInPage({ name, kind, count, rounds }) {
  /** @type {any} */
  const bench = /** @type {any} */ (window).certificateBench;
  const items = Array.from({ length: count }, (_, index) =>
    kind === 'ints' ? String(index % 1000) : kind === 'exponents' ? '1e21' : JSON.stringify({ id: index, name: `n${index}`, ok: true }),
  );
  const raw = `{"Claim":{"reviewBody":{"result":"clear","items":[${items.join(',')}]}}}`;
  const parsed = bench.parseCertificate(raw);
  /** @type {number[]} */
  const before = [];
  /** @type {number[]} */
  const after = [];
  let same = true;
  /** @param {boolean} old */
  const layOut = (old) => (old ? bench.stringifyKeepingNumbers(parsed.json, 2) : bench.layOutCertificate(raw, parsed).pretty);
  for (let round = 0; round < rounds; round++) {
    /** @type {Record<string, string>} */
    const texts = {};
    for (const old of round % 2 ? [false, true] : [true, false]) {
      const started = performance.now();
      texts[String(old)] = layOut(old);
      (old ? before : after).push(performance.now() - started);
    }
    same &&= texts.true === texts.false;
  }
  /** @param {number[]} values */
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  return { name, values: count, numbers: parsed.numbers, beforeMs: median(before), afterMs: median(after), same };
}

/** The figures as rows of a table: figure, before, after, and whether both wrote the same text. @param {CertificateFigure[]} figures */
export function certificateRows(figures) {
  return figures.map((figure) => [
    `certificate layout: ${figure.name} (read: ${figure.numbers})`,
    `${figure.beforeMs.toFixed(0)} ms`,
    `${figure.afterMs.toFixed(0)} ms`,
    figure.same ? 'same text' : 'TEXT DIFFERS',
  ]);
}
