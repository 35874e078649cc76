import type http from 'node:http';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';

/**
 * The real service's 429, in the form integrations read it: its wait in the body, `extra.retryAfter`
 * (seconds), and no `Retry-After` header. The refId `rate-limited-demo` shows it (docs/sandbox.md): its
 * first lookup is refused with a wait of RATE_LIMIT_DEMO_SECONDS, a lookup during the wait is refused
 * with the seconds left, and the first one after it finds a candidate (status level only); the next
 * lookup starts over. Only this refId is limited, so the sandbox stays usable for everything else.
 */
export const RATE_LIMIT_DEMO_REF_ID = 'rate-limited-demo';
export const RATE_LIMIT_DEMO_SECONDS = 30;

/** What the lookup finds once the wait has passed: a candidate with no identity data. */
const DEMO_RECORD: CandidateRecord = {
  status: 'waiting',
  refId: RATE_LIMIT_DEMO_REF_ID,
  isArchived: false,
  blockPassID: 'sandbox-rate-limited-demo',
  waitingDate: '2026-01-05T09:00:00.000Z',
};

export function createRateLimitDemo(now = () => Date.now()) {
  // When the wait being shown ends; undefined when the next lookup starts one.
  let waitEnds: number | undefined;
  return {
    answer(req: http.IncomingMessage, res: http.ServerResponse): void {
      const at = now();
      waitEnds ??= at + RATE_LIMIT_DEMO_SECONDS * 1000;
      if (at >= waitEnds) {
        waitEnds = undefined;
        send(req, res, 200, { status: 'success', data: DEMO_RECORD });
        return;
      }
      const retryAfter = Math.ceil((waitEnds - at) / 1000);
      send(req, res, 429, { status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter } });
    },
    reset(): void {
      waitEnds = undefined;
    },
  };
}

function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, json: unknown): void {
  const body = Buffer.from(JSON.stringify(json));
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}
