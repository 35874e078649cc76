import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { rememberPictures } from '../../src/server/sandbox/candidates.ts';

// Before each test file: the sample pictures the run drew once (test/support/pictures-setup.ts), so that
// a sandbox or sampleCandidates() in this file draws none of them again.
const file = inject('sandboxPictures');
if (file && existsSync(file)) rememberPictures(JSON.parse(readFileSync(file, 'utf8')));
