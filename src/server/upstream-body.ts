import type http from 'node:http';
import type { Failure } from './http-reply.ts';

export type BodyRead = { ok: true; text: string } | { ok: false; failure: Failure };

/**
 * A whole upstream body as text, for answers this server must check before passing anything on; bodies
 * past `maxResponseBytes` are cut and refused.
 */
export function readUpstreamBody(upstreamRes: http.IncomingMessage, maxResponseBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    upstreamRes.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxResponseBytes) upstreamRes.destroy(new Error('response too large'));
      else chunks.push(chunk);
    });
    upstreamRes.once('error', () =>
      resolve({
        ok: false,
        failure:
          received > maxResponseBytes
            ? {
                status: 502,
                code: 'response_too_large',
                message: "The KYC service's response is larger than this server accepts (KYC_MAX_RESPONSE_BYTES).",
              }
            : { status: 502, code: 'upstream_error', message: 'The response of the KYC service broke off.' },
      }),
    );
    upstreamRes.once('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
  });
}
