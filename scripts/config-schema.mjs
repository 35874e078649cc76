// @ts-check
// Writes docs/config.schema.json from the zod schema of CONFIG_FILE (src/server/config/file-schema.ts):
// `npm run config:schema` after changing that schema; test/server/config-schema.test.ts fails until then.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runnerImport } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
/** @type {{ module: typeof import('../src/server/config/json-schema.ts') }} */
const { module } = await runnerImport(path.join(root, 'src/server/config/json-schema.ts'), { configFile: false, logLevel: 'warn' });
const file = path.join(root, module.CONFIG_SCHEMA_PATH);
writeFileSync(file, module.configJsonSchema());
// Formatted as the rest of the tree, so that `npm test`'s format check passes (the test compares the JSON, not the text).
spawnSync(process.execPath, [path.join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', file], { stdio: 'inherit' });
console.log(`Wrote ${module.CONFIG_SCHEMA_PATH}.`);
