import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { PART_NAME_HEADER, PARTS_MEDIA_TYPE } from '../kyc/contract/picture-parts.ts';
import { ApiFailure } from './api-failure.ts';
import { countBytes } from './http-reply.ts';
import { JsonTokenizer, JsonTooDeepError, MAX_DEPTH } from './json-tokens.ts';
import { RecordSplitter, type SplitRecord } from './record-parts.ts';

/**
 * A compliance user's answer in parts (picture-parts.ts): the checked body is parsed as it arrives
 * (json-tokens.ts, strings in pieces), pictures decoded from base64 on the way, and once the record is whole
 * the first part is written, then each picture as one binary part. Faults of the service are all known
 * before the first byte leaves, so each is answered with its error code, never a short body.
 */

const gzip = promisify(gzipCallback);

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

const notJson = (message: string) => new ApiFailure('upstream_error', message);
const NOT_JSON = notJson("The KYC service's answer is not JSON, so it could not be sent.");
const INCOMPLETE = notJson("The KYC service's answer is incomplete JSON.");
const TOO_DEEP = notJson(`The KYC service's answer is nested deeper than ${MAX_DEPTH} levels, so it could not be sent.`);

/**
 * The checked body (the answer guard's output), parsed as its chunks come into the record's parts; an
 * error of the source is passed back. Once the body is seen not to be JSON, the rest is read and dropped.
 */
export function splitRecord(source: Readable, boundary: string): Promise<Split> {
  return new Promise((resolve) => {
    const splitter = new RecordSplitter(boundary);
    const tokens = new JsonTokenizer((token) => splitter.push(token));
    let settled = false;
    const settle = (result: Split) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      try {
        tokens.write(chunk);
      } catch (error) {
        settle({ ok: false, failure: error instanceof JsonTooDeepError ? TOO_DEEP : NOT_JSON });
        source.resume();
      }
    };
    source.on('data', onData);
    source.once('end', () => {
      try {
        tokens.end();
      } catch {
        return settle({ ok: false, failure: INCOMPLETE });
      }
      settle(splitter.done ? { ok: true, split: splitter.result() } : { ok: false, failure: INCOMPLETE });
    });
    source.once('error', (error) => settle({ ok: false, error }));
  });
}

type Piece = Buffer;

/** The parts as bytes to write, in order; pictures are the service's bytes as decoded, never copied again. */
async function layOut(split: SplitRecord, boundary: string, compress: boolean): Promise<Array<() => Piece[]>> {
  const raw = Buffer.from(split.json, 'latin1');
  const body = compress ? await gzip(raw) : raw;
  const first = [
    `--${boundary}`,
    'Content-Type: application/json; charset=utf-8',
    ...(compress ? ['Content-Encoding: gzip'] : []),
    `Content-Length: ${body.length}`,
    '',
    '',
  ].join('\r\n');
  const pieces: Array<() => Piece[]> = [() => [Buffer.from(first), body]];
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
  return pieces;
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
  const pieces = await layOut(split, boundary, compress);
  const [firstHead, firstBody] = pieces[0]!();
  if (holdsDelimiter([firstBody!], boundary) || split.pictures.some((picture) => holdsDelimiter(picture.chunks, boundary))) return false;
  res.writeHead(200, {
    'content-type': `${PARTS_MEDIA_TYPE}; boundary="${boundary}"`,
    'content-length': lengthOf(split, boundary, firstBody!.length, compress),
    'cache-control': 'no-store',
    vary: 'Accept, Accept-Encoding',
  });
  const queue = [() => [firstHead!, firstBody!], ...pieces.slice(1)];
  for (const next of queue) {
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
