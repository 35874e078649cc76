import type http from 'node:http';
import { greyTiff, heavySvg, paddedPdf } from '../fixtures/hostile-pictures.mjs';
import { type Behaviour, startFakeUpstream } from './fake-upstream.ts';

/**
 * The bodies of a hostile upstream (issue 20's second security review), each a valid candidate envelope
 * that once cost this server its memory, its time, the archive check or the key check, and a service
 * that sends any of them in chunks of a given size, with a pause between them if asked. Used by the
 * server tests and, through the same functions, by `scripts/loadtest-hostile.mjs`'s memory case.
 */

export const RECORD = {
  status: 'approved',
  refId: 'r',
  recordId: 'x',
  isArchived: false,
  blockPassID: 'b',
  approvedDate: '2026-01-01T00:00:00.000Z',
};

/** The envelope's text around `inner`, which is put in `data` after the record's own fields. */
/** `refId`: the candidate asked for (another's record is refused: other-candidate.test.ts). */
const envelope = (inner: string, refId = RECORD.refId) =>
  `{"status":"success","data":${JSON.stringify({ ...RECORD, refId }).slice(0, -1)},${inner}}}`;

/** The envelope's text before and after what `data` is to hold after the record's own fields. */
function around(): [string, string] {
  const [head, tail] = envelope('\u0000').split('\u0000');
  return [head!, tail!];
}

/** A body of about `bytes`, mostly `"x":[0,0,0,…]`: ten million numbers and more in a valid record. */
export function numberArrayBody(bytes: number): Buffer {
  const count = Math.max(1, Math.floor(bytes / 2));
  const numbers = Buffer.alloc(count * 2 - 1, '0,');
  const [head, tail] = around();
  return Buffer.concat([Buffer.from(`${head}"x":[`), numbers, Buffer.from(`]${tail}`)]);
}

/** An identity picture whose value is `=` and then `chars` letters A: never canonical base64. */
export function equalsPictureBody(chars: number): Buffer {
  const [head, tail] = around();
  const open = `${head}"identities":{"selfie":{"type":"base64","value":"=`;
  return Buffer.concat([Buffer.from(open), Buffer.alloc(chars, 'A'), Buffer.from(`"}}${tail}`)]);
}

/** `count` identity attributes of one letter each, `{"type":"string","value":"v"}`: about 40 bytes an attribute. */
export function smallIdentitiesBody(count: number): Buffer {
  const attributes = Array.from({ length: count }, (_, i) => `"attr${i}":{"type":"string","value":"v"}`);
  return Buffer.from(envelope(`"identities":{${attributes.join(',')}}`));
}

/** `data.willArchiveAtDate`, with what the options put before it. */
export function archiveBody(
  options: { real?: string; custom?: string; customFirst?: boolean; whitespace?: number; nested?: string } = {},
): Buffer {
  const parts: string[] = [];
  // A custom field named like the real one: a candidate's data, not the service's schedule.
  if (options.custom) parts.push(`"customFields":{"willArchiveAtDate":${JSON.stringify(options.custom)}}`);
  if (options.nested) parts.push(`"notes":{"data":{"willArchiveAtDate":${JSON.stringify(options.nested)}}}`);
  if (options.real !== undefined) {
    const field = `"willArchiveAtDate"${' '.repeat(options.whitespace ?? 0)}:${JSON.stringify(options.real)}`;
    if (options.customFirst === false) parts.unshift(field);
    else parts.push(field);
  }
  return Buffer.from(envelope(parts.join(',')));
}

/** The key with every character `\u`-escaped, inside a custom field's string. */
export function escapedKeyBody(key: string): Buffer {
  const escaped = [...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return Buffer.from(envelope(`"customFields":{"note":"${escaped}"}`));
}

/** The key base64-encoded as an identity picture's value, after `lead` bytes (so at any alignment). */
export function base64KeyBody(key: string, lead = 0): Buffer {
  const value = Buffer.concat([Buffer.alloc(lead, 7), Buffer.from(key), Buffer.alloc(5, 7)]).toString('base64');
  return Buffer.from(envelope(`"identities":{"selfie":{"type":"base64","value":"${value}"}}`));
}

/** A record whose identity pictures are these bytes, each as the base64 value of its attribute. */
export function picturesBody(pictures: Record<string, Buffer>, refId?: string): Buffer {
  const identities = Object.fromEntries(
    Object.entries(pictures).map(([name, bytes]) => [name, { type: 'base64', value: bytes.toString('base64') }]),
  );
  return Buffer.from(envelope(`"identities":${JSON.stringify(identities)}`, refId));
}

/**
 * Issue 31's record: four pictures over 300 kB each (so each would get a preview), each an SVG of two
 * hundred shapes through turbulence, blur and dilation filters. Once, each took a libuv thread for minutes.
 */
export const heavySvgPictures = (): Record<string, Buffer> =>
  Object.fromEntries(['passport', 'selfie', 'national_id', 'driving_license'].map((name) => [name, heavySvg()]));

/** Document formats that are never decoded, each over 300 kB: a real TIFF and a PDF. */
export const documentPictures = (): Record<string, Buffer> => ({
  residence_permit: greyTiff(640, 500),
  proof_of_address: paddedPdf(400_000),
});

/** Sends `body` with its length, in chunks of `chunkBytes`, `pauseMs` apart (0: as fast as the socket takes them). */
export function sendInChunks(res: http.ServerResponse, body: Buffer, chunkBytes = 16 * 1024, pauseMs = 0): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    if (at >= body.length) return void res.end();
    const chunk = body.subarray(at, at + chunkBytes);
    at += chunk.length;
    const go = () => (pauseMs > 0 ? setTimeout(next, pauseMs) : setImmediate(next));
    if (res.write(chunk)) go();
    else res.once('drain', go);
  };
  next();
}

/** A fake upstream that answers every lookup with `body()` in chunks. */
export async function startHostileUpstream(body: () => Buffer, chunkBytes?: number, pauseMs?: number) {
  const upstream = await startFakeUpstream();
  const behave: Behaviour = (_req, res) => sendInChunks(res, body(), chunkBytes, pauseMs);
  upstream.behave = behave;
  return upstream;
}
