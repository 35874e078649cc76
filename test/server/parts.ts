import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { PARTS_ACCEPT, isPartOf, pictureOfPreview, pictureReferenceSchema } from '../../src/kyc/contract/picture-parts.ts';
import { APP_HEADERS } from './http.ts';

/** A lookup asked in parts, its answer read as bytes (pictures are binary), and put back together. */

export interface PartsResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  cut: boolean;
}

export function getBytes(port: number, path: string, headers: Record<string, string> = {}): Promise<PartsResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, headers: { ...APP_HEADERS, accept: PARTS_ACCEPT, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let cut = false;
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('aborted', () => (cut = true));
        res.on('error', () => (cut = true));
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), cut: cut || !res.complete }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

export function boundaryOf(res: PartsResponse): string {
  return /boundary="?([^";]+)"?/.exec(String(res.headers['content-type']))![1]!;
}

/**
 * The parts, found by their delimiters (RFC 2046) rather than by their lengths as the browser reads
 * them, so that the two readings check each other: every part's Content-Length must be its body's.
 */
export async function partsOf(res: PartsResponse): Promise<Part[]> {
  const body = res.body;
  const delimiter = Buffer.from(`--${boundaryOf(res)}`);
  if (!body.subarray(0, delimiter.length).equals(delimiter)) throw new Error('the answer does not open with its delimiter');
  const parts: Part[] = [];
  for (let at = delimiter.length; body.toString('latin1', at, at + 2) !== '--'; ) {
    if (body.toString('latin1', at, at + 2) !== '\r\n') throw new Error('a delimiter line that does not end');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at);
    if (next < 0) throw new Error('no closing delimiter');
    const part = body.subarray(at + 2, next);
    const headEnd = part.indexOf('\r\n\r\n');
    const headers = Object.fromEntries(
      part
        .toString('latin1', 0, headEnd)
        .split('\r\n')
        .map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const partBody = part.subarray(headEnd + 4);
    if (Number(headers['content-length']) !== partBody.length) throw new Error('a part whose Content-Length is not its length');
    parts.push({ headers, body: partBody });
    at = next + 2 + delimiter.length;
  }
  return parts;
}

/** The record part among the parts (the status part, when there is one, comes before it). */
export function recordPartOf(parts: readonly Part[]): Part | undefined {
  return parts.find((part) => part.headers['content-id']?.startsWith('record@'));
}

export interface Reassembled {
  envelope: { status: string; data: Record<string, unknown> };
  /** The record part as sent (references in place of pictures). */
  first: { status: string; data: Record<string, unknown> };
  /** The full pictures, by part name. */
  pictures: Map<string, Part>;
  /** The previews, by the part name of the picture each stands for. */
  previews: Map<string, Part>;
  /** The status-level part, when one was sent. */
  status: { status: string; data: Record<string, unknown> } | undefined;
  /** Every part's Content-ID, in the order sent. */
  order: string[];
}

/** The first part with each referenced picture put back as base64, as the plain answer has it. */
export async function reassemble(res: PartsResponse): Promise<Reassembled> {
  const boundary = boundaryOf(res);
  const all = await partsOf(res);
  const named = (prefix: string) => all.filter((part) => part.headers['content-id']?.startsWith(prefix));
  const head = recordPartOf(all);
  if (!head) throw new Error('no record part');
  const text = head.headers['content-encoding'] === 'gzip' ? gunzipSync(head.body).toString('utf8') : head.body.toString('utf8');
  const first = JSON.parse(text) as Reassembled['first'];
  const envelope = JSON.parse(text) as Reassembled['envelope'];
  const pictures = new Map(named('picture-').map((part) => [part.headers['content-id']!, part]));
  const previews = new Map(named('preview-').map((part) => [pictureOfPreview(part.headers['content-id']!)!, part]));
  const statusPart = named('status@')[0];
  const status = statusPart && (JSON.parse(statusPart.body.toString('utf8')) as Reassembled['status']);
  const identities = envelope.data?.identities as Record<string, { value: unknown }> | undefined;
  for (const attribute of Object.values(identities ?? {})) {
    const reference = pictureReferenceSchema.safeParse(attribute?.value);
    if (!reference.success || !isPartOf(reference.data, boundary)) continue;
    const part = pictures.get(reference.data.part);
    if (!part) throw new Error(`no part ${reference.data.part}`);
    attribute.value = part.body.toString('base64');
  }
  return { envelope, first, pictures, previews, status, order: all.map((part) => part.headers['content-id']!) };
}
