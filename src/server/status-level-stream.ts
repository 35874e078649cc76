import chain from 'stream-chain';
import { none } from 'stream-chain/defs.js';
import { parser } from 'stream-json';
import { Assembler } from 'stream-json/assembler.js';
import { ignore } from 'stream-json/filters/ignore.js';
import { isStatusLevelField } from '../kyc/contract/schema.ts';
import type { NeedleWatch } from './answer-guard.ts';
import { ApiFailure } from './api-failure.ts';
import { KEY_IN_ANSWER, type UpstreamBody } from './upstream-body.ts';

/**
 * A support user's record read without holding the body: stream-json parses it as it arrives and drops
 * everything but the envelope's `status` and the status-level fields of `data` (identities, pictures,
 * certificates, custom fields) while reading, so a 15 MB record costs a few kilobytes here, however many
 * are read at once. The whole body is still parsed: a body that is not JSON is refused.
 */
export type Streamed = { ok: true; value: unknown } | { ok: false; failure: ApiFailure };

/** The path of a token to drop: anything but `status` and `data` at the top, anything not status level in `data`. */
function dropped(stack: readonly (string | number | null)[]): boolean {
  if (stack.length === 0) return false;
  if (stack[0] !== 'status' && stack[0] !== 'data') return true;
  return stack.length >= 2 && stack[0] === 'data' && !isStatusLevelField(String(stack[1]));
}

type Token = { name: string; value?: unknown };

/** Strings arrive in pieces (never a 5 MB picture held whole); those kept are joined here, after the filter. */
function joinStrings() {
  let pieces: string[] | undefined;
  return (token: Token) => {
    if (token.name === 'startString') pieces = [];
    else if (token.name === 'stringChunk' && pieces) pieces.push(String(token.value));
    else if (token.name === 'endString' && pieces) {
      const value = pieces.join('');
      pieces = undefined;
      return { name: 'stringValue', value };
    } else return token;
    return none;
  };
}

const broken = (message: string) => new ApiFailure('upstream_error', message);

export function readStatusLevelStreamed(upstreamRes: UpstreamBody, maxResponseBytes: number, watch?: NeedleWatch): Promise<Streamed> {
  return new Promise((resolve) => {
    const pipeline = chain([
      parser({ packKeys: true, streamKeys: false, packStrings: false, streamStrings: true, packNumbers: true, streamNumbers: false }),
      ignore({ filter: dropped }),
      joinStrings(),
    ]);
    const assembled = Assembler.connectTo(pipeline);
    let settled = false;
    const settle = (result: Streamed) => {
      if (settled) return;
      settled = true;
      pipeline.destroy();
      if (!result.ok) upstreamRes.destroy();
      resolve(result);
    };
    let received = 0;
    upstreamRes.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (watch?.push(chunk) === 'found') return settle({ ok: false, failure: KEY_IN_ANSWER });
      if (received > maxResponseBytes) {
        const message = "The KYC service's response is larger than this server accepts (KYC_MAX_RESPONSE_BYTES).";
        return settle({ ok: false, failure: new ApiFailure('response_too_large', message) });
      }
      if (!pipeline.write(chunk)) upstreamRes.pause();
    });
    pipeline.on('drain', () => upstreamRes.resume());
    upstreamRes.once('end', () => pipeline.end());
    const breakOff = () => settle({ ok: false, failure: broken('The response of the KYC service broke off.') });
    upstreamRes.once('error', breakOff);
    upstreamRes.once('aborted', breakOff);
    upstreamRes.once('close', () => {
      if (!upstreamRes.complete) breakOff();
    });
    pipeline.on('error', () =>
      settle({ ok: false, failure: broken('The response of the KYC service is not JSON, so it could not be reduced to status level.') }),
    );
    pipeline.on('end', () => {
      if (!assembled.done) return settle({ ok: false, failure: broken('The response of the KYC service is incomplete JSON.') });
      settle({ ok: true, value: assembled.current });
    });
    pipeline.resume();
  });
}
