import { existsSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { drawnPictures, sampleCandidates } from '../../src/server/sandbox/candidates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of the sandbox's sample pictures, drawn once for the run (test/support/pictures.ts reads it). */
    sandboxPictures: string;
  }
}

/**
 * Vitest's global setup: draws the sandbox's sample pictures once for the whole run (seconds of CPU
 * that some thirty test files each spent), into a file of this run that its end removes. Each project
 * runs it; the first draws.
 */
export default function setup(project: TestProject): () => void {
  const file = path.join(os.tmpdir(), `candidate-lookup-pictures-${process.pid}.json`);
  if (!existsSync(file)) {
    sampleCandidates({ now: new Date() });
    writeFileSync(file, JSON.stringify(drawnPictures()));
  }
  project.provide('sandboxPictures', file);
  return () => rmSync(file, { force: true });
}
