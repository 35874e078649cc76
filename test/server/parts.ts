import http from 'node:http';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { meros } from 'meros/node';
import { PARTS_ACCEPT, isPartOf, pictureReferenceSchema } from '../../src/kyc/contract/picture-parts.ts';
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

/** The parts, as meros (its Node build, binary-safe) reads them. */
export async function partsOf(res: PartsResponse): Promise<Part[]> {
  const source = Object.assign(Readable.from([res.body]), { headers: res.headers });
  const read = await meros<Buffer>(source as unknown as http.IncomingMessage);
  if (!(Symbol.asyncIterator in read)) throw new Error('not a multipart answer');
  const parts: Part[] = [];
  for await (const part of read) {
    // A JSON part meros could parse is given back as text, so that the test reads every part alike.
    const body = part.json ? Buffer.from(JSON.stringify(part.body)) : Buffer.from(part.body as unknown as Buffer);
    parts.push({ headers: part.headers as Record<string, string>, body });
  }
  return parts;
}

export interface Reassembled {
  envelope: { status: string; data: Record<string, unknown> };
  /** The first part as sent (references in place of pictures). */
  first: { status: string; data: Record<string, unknown> };
  pictures: Map<string, Part>;
}

/** The first part with each referenced picture put back as base64, as the plain answer has it. */
export async function reassemble(res: PartsResponse): Promise<Reassembled> {
  const boundary = boundaryOf(res);
  const [head, ...rest] = await partsOf(res);
  const text = head!.headers['content-encoding'] === 'gzip' ? gunzipSync(head!.body).toString('utf8') : head!.body.toString('utf8');
  const first = JSON.parse(text) as Reassembled['first'];
  const envelope = JSON.parse(text) as Reassembled['envelope'];
  const pictures = new Map(rest.map((part) => [part.headers['content-id']!, part]));
  const identities = envelope.data?.identities as Record<string, { value: unknown }> | undefined;
  for (const attribute of Object.values(identities ?? {})) {
    const reference = pictureReferenceSchema.safeParse(attribute?.value);
    if (!reference.success || !isPartOf(reference.data, boundary)) continue;
    const part = pictures.get(reference.data.part);
    if (!part) throw new Error(`no part ${reference.data.part}`);
    attribute.value = part.body.toString('base64');
  }
  return { envelope, first, pictures };
}
