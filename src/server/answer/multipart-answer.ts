import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { createGzip } from 'node:zlib';
import { PART_NAME_HEADER, PARTS_MEDIA_TYPE } from '../../kyc/contract/picture-parts.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { countBytes } from '../http/http-reply.ts';
import type { AnswerGuard } from './answer-guard.ts';
import { PARTS_BUSY, type PartsHolding } from './parts-budget.ts';
import { RecordSplitter, type SplitRecord } from './record-parts.ts';

/**
 * A compliance user's answer in parts (picture-parts.ts): the checked body is parsed as it arrives
 * (json-tokens.ts, strings in pieces), pictures decoded from base64 on the way, and once the record is whole
 * the first part is written, then each picture as one binary part. Faults of the service are all known
 * before the first byte leaves, so each is answered with its error code, never a short body.
 */

/** Whether the browser asked for parts (and does not refuse them with q=0). */
export function partsAccepted(req: http.IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (typeof accept !== 'string') return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return type === PARTS_MEDIA_TYPE && !(q && Number(q.slice(2)) === 0);
  });
}

function gzipAccepted(req: http.IncomingMessage): boolean {
  return /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(String(req.headers['accept-encoding'] ?? ''));
}

/** 128 random bits: nothing the service sends can contain it but by a chance too small to matter (checked anyway). */
export function newBoundary(): string {
  return randomBytes(16).toString('hex');
}

export type Split = { ok: true; split: SplitRecord } | { ok: false; failure: ApiFailure } | { ok: false; error: Error };

/**
 * The checked body (the answer guard's output, whose scan this reads: answer-scan.ts) split into the
 * record's parts as it comes; an error of the guard or the source is passed back. The record holds its
 * bytes from `holding` (parts-budget.ts): once that is refused, the answer is refused at once with
 * PARTS_BUSY, and the body is left to the others that read it.
 */
export function splitRecord(guard: AnswerGuard, boundary: string, holding: PartsHolding): Promise<Split> {
  return new Promise((resolve) => {
    const splitter = new RecordSplitter(boundary, (bytes) => holding.take(bytes), guard.keyWatch);
    guard.scan.add(splitter);
    let settled = false;
    const settle = (result: Split) => {
      if (settled) return;
      settled = true;
      guard.off('data', onData);
      if (!result.ok) guard.scan.remove(splitter);
      resolve(result);
    };
    // The guard's output is what passed every check; the splitter read the same bytes from the scan.
    const onData = () => {
      if (splitter.refused) {
        settle({ ok: false, failure: PARTS_BUSY });
        guard.resume();
      }
    };
    guard.on('data', onData);
    guard.once('end', () => settle(splitter.done ? { ok: true, split: splitter.result() } : { ok: false, failure: INCOMPLETE }));
    guard.once('error', (error) => settle({ ok: false, error }));
  });
}

const INCOMPLETE = new ApiFailure('upstream_error', "The KYC service's answer is incomplete JSON.");

type Piece = Buffer;

function gzipAll(chunks: readonly Buffer[]): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const zip = createGzip();
    zip.on('data', (chunk: Buffer) => out.push(chunk));
    zip.once('end', () => resolve(out));
    zip.once('error', reject);
    for (const chunk of chunks) zip.write(chunk);
    zip.end();
  });
}

/** The parts as bytes to write, in order; pictures are the service's bytes as decoded, never copied again. */
async function layOut(
  split: SplitRecord,
  boundary: string,
  compress: boolean,
): Promise<{ firstBody: Buffer[]; pieces: Array<() => Piece[]> }> {
  const firstBody = compress ? await gzipAll(split.first) : split.first;
  const bodyLength = firstBody.reduce((sum, chunk) => sum + chunk.length, 0);
  const first = [
    `--${boundary}`,
    'Content-Type: application/json; charset=utf-8',
    ...(compress ? ['Content-Encoding: gzip'] : []),
    `Content-Length: ${bodyLength}`,
    '',
    '',
  ].join('\r\n');
  const pieces: Array<() => Piece[]> = [() => [Buffer.from(first), ...firstBody]];
  for (const picture of split.pictures) {
    const head = [
      '',
      `--${boundary}`,
      `Content-Type: ${picture.contentType}`,
      `${PART_NAME_HEADER}: ${picture.reference.part}`,
      `Content-Length: ${picture.reference.size}`,
      '',
      '',
    ].join('\r\n');
    pieces.push(() => {
      const chunks = picture.chunks;
      // Freed as written: the socket holds what it has not sent, this record no longer does.
      picture.chunks = [];
      return [Buffer.from(head), ...chunks];
    });
  }
  pieces.push(() => [Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { firstBody, pieces };
}

function lengthOf(split: SplitRecord, boundary: string, firstBodyLength: number, compress: boolean): number {
  const first = `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n${compress ? 'Content-Encoding: gzip\r\n' : ''}Content-Length: ${firstBodyLength}\r\n\r\n`;
  let length = first.length + firstBodyLength + `\r\n--${boundary}--\r\n`.length;
  for (const picture of split.pictures) {
    const { part, size } = picture.reference;
    length +=
      `\r\n--${boundary}\r\nContent-Type: ${picture.contentType}\r\n${PART_NAME_HEADER}: ${part}\r\nContent-Length: ${size}\r\n\r\n`
        .length + size;
  }
  return length;
}

/** Whether the delimiter occurs in any of the bytes, also across two chunks. */
function holdsDelimiter(chunks: readonly Buffer[], boundary: string): boolean {
  const needle = Buffer.from(`--${boundary}`);
  return chunks.some((chunk, i) => {
    if (chunk.includes(needle)) return true;
    const next = chunks[i + 1];
    return next !== undefined && Buffer.concat([chunk.subarray(-needle.length), next.subarray(0, needle.length)]).includes(needle);
  });
}

/** The browser's request and response; a browser that takes nothing for `stallMs` is cut off. */
export interface PartsTarget {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  stallMs: number;
}

/**
 * Writes the answer: status line and headers, then part after part, each waiting for the socket to take
 * the last (a slow link holds at most about one picture in the socket's buffer). A browser that stops
 * reading is cut off after `stallMs`, as the plain answer is by the service's idle timeout, so that no
 * record is held for it. False when the delimiter turned up in the data (nothing is written then).
 */
export async function writeParts({ req, res, stallMs }: PartsTarget, split: SplitRecord, boundary: string): Promise<boolean> {
  const compress = gzipAccepted(req);
  const { firstBody, pieces } = await layOut(split, boundary, compress);
  if (holdsDelimiter(firstBody, boundary) || split.pictures.some((picture) => holdsDelimiter(picture.chunks, boundary))) return false;
  res.writeHead(200, {
    'content-type': `${PARTS_MEDIA_TYPE}; boundary="${boundary}"`,
    'content-length': lengthOf(
      split,
      boundary,
      firstBody.reduce((sum, chunk) => sum + chunk.length, 0),
      compress,
    ),
    'cache-control': 'no-store',
    vary: 'Accept, Accept-Encoding',
  });
  for (const next of pieces) {
    if (res.destroyed) return true;
    for (const piece of next()) {
      countBytes(res, piece.length);
      if (!res.write(piece)) await drained(res, stallMs);
    }
  }
  res.end();
  return true;
}

function drained(res: http.ServerResponse, stallMs: number): Promise<void> {
  return new Promise((resolve) => {
    const stalled = setTimeout(() => res.destroy(), stallMs);
    const done = () => {
      clearTimeout(stalled);
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
