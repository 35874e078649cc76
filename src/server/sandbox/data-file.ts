import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { structuredFieldsOf } from '../../kyc/contract/other-forms.ts';
import { type CandidateRecord, readCandidateRecord } from '../../kyc/contract/record-reading.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { ConfigError } from '../config/config.ts';
import { parseJsonText } from '../config/json-text.ts';
import type { SandboxCandidate } from './candidates.ts';

/**
 * `SANDBOX_DATA=<file.json>`: a team's own candidates instead of the built-in ones. The file is a JSON
 * array of full-level candidate records (the `data` of a lookup response), each with a recordId. The app
 * reads the service's records liberally, but a data file is read strictly: a field it holds in another
 * form than the contract's is a mistake in the file, said at start rather than served.
 */
const dataFileSchema = z
  .array(z.unknown())
  .min(1, 'the file holds no candidate')
  .transform((items, ctx) =>
    items.flatMap((item, index): CandidateRecord[] => {
      const reading = readCandidateRecord(item);
      if (!reading.ok) {
        ctx.addIssue({ code: 'custom', path: [index, ...reading.path], message: reading.message });
        return [];
      }
      for (const { field, expected, found } of reading.unread) {
        ctx.addIssue({ code: 'custom', path: [index, ...field.split('.')], message: `${expected} expected, ${found} found` });
      }
      // An object or a list where text belongs is shown by the page as its JSON (other-forms.ts), and kept
      // beside the record, never in it: served from a data file it would be lost, so the file is refused.
      // An attribute's number, true or false or null is served as JSON reads it (keepScalarAttributes).
      for (const [map, within] of [
        ['identities', reading.record.identities],
        ['customFields', reading.record.customFields],
      ] as const) {
        for (const { name, kind, json } of structuredFieldsOf(within)) {
          const otherNumber = kind === 'a number' && mayReadOtherwise(Number(json));
          if (map === 'identities' && SCALAR_KINDS.has(kind) && !otherNumber) continue;
          const message = otherNumber
            ? 'a number JSON reads as the number written expected (at most 15 significant digits, or a whole number under 2^53), one it may read as another found'
            : `text expected, ${kind} found`;
          ctx.addIssue({ code: 'custom', path: [index, map, name], message });
        }
      }
      keepScalarAttributes(item, reading.record);
      if (!reading.record.recordId) ctx.addIssue({ code: 'custom', path: [index, 'recordId'], message: 'recordId is missing or empty' });
      return [reading.record];
    }),
  )
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

/** What the page reads from the real service's attributes in place of text (other-forms.ts's scalarField). */
const SCALAR_KINDS: ReadonlySet<string> = new Set(['a number', 'true or false', 'null']);

/**
 * Whether JSON.parse may have read another number than the file wrote: the number read, written back as the
 * sandbox serves it (the shortest text that reads as it), holds more than 15 significant digits, so the file
 * held at least 16, more than a double keeps for certain (12345678901234567890 reads as 12345678901234567000,
 * 9007199254740993 as 9007199254740992). A whole number under 2^53 is read exactly. Only the writing of the
 * others changes, not the number: 1.50 is served as 1.5, 1E5 as 100000, 1e21 as 1e+21. (The sandbox does not
 * keep the file's text: Node 20's JSON.parse gives no reviver the source, and more digits than a double holds
 * that read as a short number, 0.1000000000000000000001 as 0.1, cannot be told from it.)
 */
function mayReadOtherwise(value: number): boolean {
  if (Number.isSafeInteger(value)) return false;
  const digits = String(value)
    .replace(/e.*$/i, '')
    .replace(/[-.]/g, '')
    .replace(/^0+|0+$/g, '');
  return digits.length > 15;
}

/**
 * An identity attribute whose value is a number, true or false, or null (`{"type": "string", "value": 42}`),
 * as the real service may send one and the page reads it: the record's reading keeps it beside the
 * record (other-forms.ts), so it is put back in the record as JSON read it from the file, to be served as
 * sent. A number JSON may have read otherwise is refused above (mayReadOtherwise).
 */
function keepScalarAttributes(item: unknown, record: CandidateRecord): void {
  const sent = (item as { identities?: Record<string, unknown> }).identities;
  if (!record.identities || !sent) return;
  for (const { name, kind, json } of structuredFieldsOf(record.identities)) {
    if (!SCALAR_KINDS.has(kind) || (kind === 'a number' && mayReadOtherwise(Number(json)))) continue;
    // Not the contract's text: the point is to serve what the service sends, which the page reads.
    Object.defineProperty(record.identities, name, { value: sent[name], enumerable: true, writable: true, configurable: true });
  }
}

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
