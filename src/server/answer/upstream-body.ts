import type http from 'node:http';
import type { Readable } from 'node:stream';
import type { NeedleWatch } from './needle-watch.ts';
import { ApiFailure } from '../http/api-failure.ts';

/** An answer holding this server's API key: an echo service, or something reflecting the Authorization header. */
export const KEY_IN_ANSWER = new ApiFailure(
  'upstream_error',
  "The KYC service's answer contained this server's API key, so it was refused. An administrator must check KYC_BASE_URL.",
);

export type BodyRead = { ok: true; text: string } | { ok: false; failure: ApiFailure };

/** What the answer's readers use of the service's response: its body, status, headers, and whether it came whole. */
export type UpstreamBody = Readable & Pick<http.IncomingMessage, 'headers' | 'statusCode' | 'complete'>;

/**
 * A whole upstream body as text, for answers this server must check before passing anything on; bodies
 * past `maxResponseBytes` are cut and refused, and so is a body that holds a key `watch` looks for.
 */
export function readUpstreamBody(upstreamRes: UpstreamBody, maxResponseBytes: number, watch?: NeedleWatch): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let keySeen = false;
    upstreamRes.on('data', (chunk: Buffer) => {
      received += chunk.length;
      keySeen ||= watch?.push(chunk) === 'found';
      if (keySeen) upstreamRes.destroy(new Error('key in the answer'));
      else if (received > maxResponseBytes) upstreamRes.destroy(new Error('response too large'));
      else chunks.push(chunk);
    });
    upstreamRes.once('error', () =>
      resolve({
        ok: false,
        failure: keySeen
          ? KEY_IN_ANSWER
          : received > maxResponseBytes
            ? new ApiFailure(
                'response_too_large',
                "The KYC service's response is larger than this server accepts (limits.maxResponseBytes).",
              )
            : new ApiFailure('upstream_error', 'The response of the KYC service broke off.'),
      }),
    );
    upstreamRes.once('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
  });
}
