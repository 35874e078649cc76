import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { candidateRecordSchema } from '../../kyc/contract/schema.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { ConfigError } from '../config/config.ts';
import { parseJsonText } from '../config/json-text.ts';
import type { SandboxCandidate } from './candidates.ts';

/**
 * `SANDBOX_DATA=<file.json>`: a team's own candidates instead of the built-in ones. The file is a JSON
 * array of full-level candidate records (the `data` of a lookup response), each with a recordId.
 */
const dataFileSchema = z
  .array(z.intersection(candidateRecordSchema, z.object({ recordId: z.string().min(1, 'recordId is empty') })))
  .min(1, 'the file holds no candidate')
  .superRefine((records, ctx) => {
    for (const kind of ['refId', 'recordId'] as const) {
      const seen = new Set<string>();
      records.forEach((record, index) => {
        const id = record[kind];
        if (!id) return;
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [index, kind], message: `duplicate ${kind} "${id}"` });
        seen.add(id);
      });
    }
  });

export function loadSandboxData(file: string): SandboxCandidate[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`sandbox.data: cannot read ${file}: ${(error as Error).message}`);
  }
  // Line and column only: Node's own message would quote the text there.
  const json = parseJsonText(text);
  if (!json.ok) throw new ConfigError(`sandbox.data: ${file} ${json.problem}`);
  const parsed = dataFileSchema.safeParse(json.value);
  if (!parsed.success) {
    throw new ConfigError(`sandbox.data: ${file} is not a list of candidate records:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data.map((record) => {
    // The name is a sample's own field (left out for support users), never part of its summary.
    return { record, summary: [statusInfo(record.status).label, record.isArchived ? 'archived' : ''].filter(Boolean).join(', ') };
  });
}
