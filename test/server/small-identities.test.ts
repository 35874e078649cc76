import net from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { RecordSplitter } from '../../src/server/answer/record-parts.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { smallIdentitiesBody, startHostileUpstream } from './hostile-upstream.ts';
import { APP_HEADERS, startTestApp } from './http.ts';
import { getBytes, partsOf, recordPartOf } from './parts.ts';

/**
 * A red-team finding: a record of 100 000 identity attributes of one letter each (4 MB) asked in parts
 * took 15 to 33 s and 10 to 17 s of the server's CPU, and four at once held every other user's lookup
 * for seconds. Every value's slot cut the first part into a piece of a few bytes, and each piece was
 * written on its own into gzip and into the response. The part is now written in blocks of 64 KiB.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const BLOCK_BYTES = 64 * 1024;
const AS_ANA = { 'x-user': 'ana', 'x-role': 'compliance' };

async function hostile(body: Buffer) {
  const upstream = await startHostileUpstream(() => body);
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'live-key-3f9a/"c27e81d0' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
  });
  cleanups.push(app.close, upstream.close);
  return app;
}

/**
 * The answer's body as sent on the wire, chunk by chunk (Transfer-Encoding: chunked): each chunk is one
 * write of the response, which Node's own client would not show (it joins and splits them as the socket
 * reads). Uncompressed, so that the writes of the first part are its own, not gzip's.
 */
function wireChunks(port: number, path: string): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const headers = { ...APP_HEADERS, ...AS_ANA, accept: 'multipart/mixed', 'accept-encoding': 'identity', connection: 'close' };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head.join('')}\r\n`);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(received);
      const chunks: Buffer[] = [];
      let at = raw.indexOf('\r\n\r\n') + 4;
      if (!/transfer-encoding: chunked/i.test(raw.toString('latin1', 0, at))) return reject(new Error('not chunked'));
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at);
        const size = lineEnd < 0 ? Number.NaN : Number.parseInt(raw.toString('latin1', at, lineEnd), 16);
        // An answer cut short (no closing chunk) is a failure to say, never a loop over nothing.
        if (!Number.isInteger(size) || lineEnd + 2 + size > raw.length) {
          return reject(new Error(`the answer was cut short after ${chunks.length} chunks (${raw.length} bytes)`));
        }
        if (size === 0) return resolve(chunks);
        chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
    });
  });
}

describe('a record of many small identity attributes, asked in parts', () => {
  it('attack: a record of 100 000 small identities ties up the server', async () => {
    const body = smallIdentitiesBody(100_000);
    const app = await hostile(body);
    const chunks = await wireChunks(app.port, '/api/candidates/refId/r');
    // A write per 64 KiB block of the answer, and a few for the parts' heads and the closing delimiter;
    // it was a write per piece between two values: over 300 000.
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(body.length / BLOCK_BYTES) + 8);
    const wire = Buffer.concat(chunks);
    const boundary = /--([0-9a-f]{32})\r\n/.exec(wire.toString('latin1', 0, 64))![1]!;
    const plainParts = await partsOf({
      status: 200,
      headers: { 'content-type': `multipart/mixed; boundary="${boundary}"` },
      body: wire,
      cut: false,
    });
    // The record part is the service's bytes exactly (no picture to take out), uncompressed and gzipped.
    expect(recordPartOf(plainParts)!.body.equals(body)).toBe(true);
    const gzipped = await getBytes(app.port, '/api/candidates/refId/r', { ...AS_ANA, 'accept-encoding': 'gzip' });
    const record = recordPartOf(await partsOf(gzipped))!;
    expect(record.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(record.body).equals(body)).toBe(true);
  }, 120_000);

  it('attack: its first part goes into gzip in blocks of 64 KiB, not a write per value', () => {
    const body = smallIdentitiesBody(100_000);
    const splitter = new RecordSplitter('b');
    const scan = new AnswerScan();
    scan.add(splitter);
    for (let at = 0; at < body.length; at += 16 * 1024) scan.write(body.subarray(at, at + 16 * 1024));
    expect(scan.end()).toBe(true);
    // The chunks of the first part are what the parts writer hands gzip, one write each.
    const first = splitter.result().first;
    expect(first.length).toBeLessThanOrEqual(Math.ceil(body.length / BLOCK_BYTES));
    expect(first.slice(0, -1).every((chunk) => chunk.length === BLOCK_BYTES)).toBe(true);
    expect(Buffer.concat(first).equals(body)).toBe(true);
  }, 120_000);
});
