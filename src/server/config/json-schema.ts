import { z } from 'zod';
import { configFileSchema } from './file-schema.ts';

/** Where the JSON Schema of CONFIG_FILE is committed, for editors' completion (`"$schema": "…"`). */
export const CONFIG_SCHEMA_PATH = 'docs/config.schema.json';

/**
 * CONFIG_FILE's JSON Schema, generated from the zod schema the server checks it with: what a person
 * writes (the input side), refinements such as "must contain {recordId}" left to the server.
 */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, title: 'Candidate Lookup CONFIG_FILE' }, null, 2)}\n`;
}
