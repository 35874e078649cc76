import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { candidateRecordSchema } from '../../kyc/contract/schema.ts';
import { ConfigError } from '../config/config.ts';
import type { SandboxCandidate } from './candidates.ts';

/**
 * sandbox.hostile: the browser suite's candidate made of attack strings and attacking "pictures" (an SVG
 * that would take minutes to render, a TIFF, a PDF: test/fixtures/hostile-pictures.mjs). It is a test fixture of the
 * source checkout, imported from there at run time (never bundled), so a production build carries none
 * of its strings and a deployment without the test folder cannot serve it.
 */
export const HOSTILE_FIXTURE = 'test/fixtures/hostile-candidate.mjs';

const candidateSchema = z.object({ record: candidateRecordSchema, summary: z.string() });

/** `root` is the project root, where `npm start` runs (as for `.env`). */
export async function loadHostileCandidate(root: string = process.cwd()): Promise<SandboxCandidate> {
  const file = path.resolve(root, HOSTILE_FIXTURE);
  if (!existsSync(file)) {
    throw new ConfigError(`sandbox.hostile needs ${HOSTILE_FIXTURE}, a test fixture of the source checkout, which is not in ${root}.`);
  }
  const fixture: { hostileCandidate?: unknown } = await import(/* @vite-ignore */ pathToFileURL(file).href);
  const make = fixture.hostileCandidate;
  if (typeof make !== 'function') throw new ConfigError(`sandbox.hostile: ${HOSTILE_FIXTURE} exports no hostileCandidate().`);
  const candidate = candidateSchema.safeParse(make());
  if (!candidate.success)
    throw new ConfigError(`sandbox.hostile: ${HOSTILE_FIXTURE} does not hold a candidate:\n${z.prettifyError(candidate.error)}`);
  return candidate.data;
}
