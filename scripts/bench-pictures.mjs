// @ts-check
// `node scripts/bench-pictures.mjs [checkout ...]`: the time the sandbox takes to draw one picture, in
// each checkout given (this one by default), taking turns round by round so that every checkout meets the
// same load. Sample pictures (720x480: JPEG, PNG, sideways, EXIF-turned) and a large one (2400x1800 with
// camera noise, as in large-image mode). Each time is a median over the rounds; the first picture of
// each kind is drawn once before, so that nothing is counted that happens only once per process.
import path from 'node:path';
import { runnerImport } from 'vite';

const roots = process.argv.length > 2 ? process.argv.slice(2) : [path.resolve(import.meta.dirname, '..')];
const ROUNDS = 9;
const lines = ['ADA LOVELACE', 'DOB 03/15/1990', 'REF 9C1B01'];
const SAMPLES = [
  { kind: 'passport', lines, format: 'jpeg', width: 720, height: 480 },
  { kind: 'selfie', lines, format: 'jpeg', width: 720, height: 480 },
  { kind: 'proof_of_address', lines, format: 'png', width: 720, height: 480 },
  { kind: 'national_id', lines, format: 'jpeg', width: 720, height: 480, orientation: 'sideways' },
  { kind: 'passport', lines, format: 'jpeg', width: 720, height: 480, orientation: 'exif' },
];
const LARGE = { kind: 'passport', lines: ['Benchmark candidate'], format: 'jpeg', width: 2400, height: 1800, cameraNoise: true };

/** @typedef {{ root: string, draw: (spec: object) => Promise<Buffer> | Buffer, sample: number[], large: number[], largeBytes: number }} Checkout */
/** @type {Checkout[]} */
const checkouts = [];
for (const root of roots) {
  /** @type {{ module: { drawPicture: (spec: object) => Promise<Buffer> | Buffer } }} */
  const { module } = await runnerImport(path.join(path.resolve(root), 'src/server/sandbox/images.ts'), {
    configFile: false,
    logLevel: 'warn',
  });
  checkouts.push({ root, draw: module.drawPicture, sample: [], large: [], largeBytes: 0 });
}

/** @param {Checkout} checkout @param {object} spec */
async function timed(checkout, spec) {
  const started = performance.now();
  const bytes = await checkout.draw(spec);
  return { ms: performance.now() - started, bytes: bytes.length };
}

for (const checkout of checkouts) for (const spec of [...SAMPLES, LARGE]) await timed(checkout, spec);
for (let round = 0; round < ROUNDS; round++) {
  for (const checkout of round % 2 ? [...checkouts].reverse() : checkouts) {
    for (const spec of SAMPLES) checkout.sample.push((await timed(checkout, spec)).ms);
    if (round % 3 === 0) {
      const { ms, bytes } = await timed(checkout, LARGE);
      checkout.large.push(ms);
      checkout.largeBytes = bytes;
    }
  }
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
for (const { root, sample, large, largeBytes } of checkouts) {
  console.log(
    `${root}: sample picture ${median(sample).toFixed(1)} ms (median of ${sample.length}), ` +
      `large picture ${median(large).toFixed(0)} ms (median of ${large.length}, ${(largeBytes / 1e6).toFixed(2)} MB)`,
  );
}
