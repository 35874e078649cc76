import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { PARTS_MEDIA_TYPE } from '../../kyc/contract/picture-parts.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { AnswerGuard } from './answer-guard.ts';
import type { PartsHolding } from './parts-budget.ts';
import { type PicturePart, RecordSplitter, type SplitRecord } from './record-parts.ts';

/**
 * A compliance user's answer in parts (picture-parts.ts): the checked body is parsed as it arrives
 * (json-tokens.ts, strings in pieces), pictures decoded from base64 on the way; the parts are written by
 * parts-writer.ts.
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

export function gzipAccepted(req: http.IncomingMessage): boolean {
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
 * the holding's refusal (the bound's, or the person's share of it), and the body is left to the others that read it.
 */
export function splitRecord(
  guard: AnswerGuard,
  boundary: string,
  holding: PartsHolding,
  onPicture?: (picture: PicturePart) => void,
): Promise<Split> {
  return new Promise((resolve) => {
    const splitter = new RecordSplitter(boundary, (bytes) => holding.take(bytes), guard.keyWatch, onPicture);
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
        settle({ ok: false, failure: holding.refusal });
        guard.resume();
      }
    };
    guard.on('data', onData);
    guard.once('end', () => settle(splitter.done ? { ok: true, split: splitter.result() } : { ok: false, failure: INCOMPLETE }));
    guard.once('error', (error) => settle({ ok: false, error }));
  });
}

const INCOMPLETE = new ApiFailure('upstream_error', "The KYC service's answer ended before the record was complete.");

/** The browser's request and response; a browser that takes nothing for `stallMs` is cut off. */
export interface PartsTarget {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  stallMs: number;
}

/** Resolves once the socket took what was written, or closed; a browser that takes nothing for `stallMs` is cut off. */
export function drained(res: http.ServerResponse, stallMs: number): Promise<void> {
  // Closed already: its 'close' has passed, and waiting for it would never end.
  if (res.destroyed || res.closed) return Promise.resolve();
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
