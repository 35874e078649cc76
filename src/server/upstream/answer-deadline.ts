import type http from 'node:http';
import { ApiFailure } from '../http/api-failure.ts';

/** "15" or "1.5": seconds as the service's timeouts are said. */
export const secondsOf = (ms: number) => Math.round(ms / 100) / 10;

/**
 * The whole answer's deadline: past it, a body still coming (however slowly: the gaps' timer restarts at
 * each byte) is cut, and whoever reads it gets the failure as the body's error (api-failure.ts,
 * brokenOff); before the body, `beforeBody` has it. Only the service's time counts: while this server
 * holds the body back (a browser reading slowly: the pipe pauses it), the clock stops, so that a large
 * record on a slow link still arrives whole (the browser's own stall is cut by `browserStallMs`).
 */
export function wholeAnswerDeadline(ms: number, beforeBody: (failure: ApiFailure) => void) {
  let body: http.IncomingMessage | undefined;
  let left = ms;
  let since = performance.now();
  const expire = () => {
    const failure = new ApiFailure(
      'upstream_timeout',
      `The KYC service did not finish its answer within ${secondsOf(ms)} s (limits.upstreamAnswerTimeoutMs).`,
    );
    if (body) body.destroy(failure);
    else beforeBody(failure);
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(expire, ms);
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    flowing(response: http.IncomingMessage) {
      body = response;
      // The failure reaches the body's readers as its error; a body nobody listens to any more must not throw.
      response.on('error', () => {});
      response.on('pause', () => {
        if (!timer) return;
        stop();
        left -= performance.now() - since;
      });
      response.on('resume', () => {
        if (timer || response.destroyed) return;
        since = performance.now();
        timer = setTimeout(expire, Math.max(0, left));
      });
      response.once('close', stop);
    },
    clear: stop,
  };
}
