import { createHmac } from 'node:crypto';
import http from 'node:http';

/**
 * A KYC service holding a big Waiting tab for the browser suite (issue 32: the queue at 10 000
 * candidates), made by a seeded function, never a checked-in fixture: its list in the current
 * documentation's shape (whole records with their `waitingDate`, no recordId), its status-level lookups,
 * and a decision it can take and announce as the service does, with a signed webhook delivery.
 */

export const SCALE_CLIENT_ID = 'e2e-scale';
/** The secret the app takes its deliveries with (KYC_WEBHOOK_SECRET of its server in servers.ts). */
export const SCALE_WEBHOOK_SECRET = 'e2e-scale-webhook-secret-long-enough';
export const SCALE_SLA_HOURS = 48;
const HOUR = 3_600_000;

export interface ScaleCandidate {
  refId: string;
  recordId: string;
  status: string;
  /** When it entered its status (ms). */
  since: number;
}

/** A small seeded generator (mulberry32): the same candidates at every run with the same seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `count` waiting candidates, their waits spread over four days in no particular order of the list, none
 * within an hour of the SLA (so that none crosses it while a test runs, and the over-SLA count is exact).
 */
export function waitingCandidates(count: number, seed: number, now: number): ScaleCandidate[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const hours = random() < 0.5 ? random() * (SCALE_SLA_HOURS - 1) : SCALE_SLA_HOURS + 1 + random() * 47;
    // Whole milliseconds, distinct with near certainty; the index orders equal dates by id anyway.
    return { refId: `scale-${i}`, recordId: `rec-scale-${i}`, status: 'waiting', since: Math.round(now - hours * HOUR) };
  });
}

const dateField = (status: string) => `${status.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}Date`;

function recordOf(candidate: ScaleCandidate) {
  return {
    status: candidate.status,
    recordId: candidate.recordId,
    refId: candidate.refId,
    isArchived: false,
    blockPassID: `bp-${candidate.refId}`,
    [dateField(candidate.status)]: new Date(candidate.since).toISOString(),
  };
}

/** The service on `port`: its list by status, a lookup by refId or recordId; every list request counted. */
export async function startScaleUpstream(port: number, candidates: ScaleCandidate[]) {
  const byId = new Map(candidates.flatMap((one) => [[one.refId, one] as const, [one.recordId, one] as const]));
  const seen = { list: 0, lookups: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, , , , , kind, id] = url.pathname.split('/');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (kind === 'applicants') {
      seen.list++;
      const listed = candidates.filter((one) => !id || one.status === id);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 100));
      const records = listed.slice(skip, skip + limit).map((one) => {
        const { recordId: _recordId, ...rest } = recordOf(one);
        return rest;
      });
      return send(200, { status: 'success', data: { records, total: listed.length, skip, limit } });
    }
    seen.lookups++;
    const found = byId.get(decodeURIComponent(id ?? ''));
    if (!found || (kind !== 'refId' && kind !== 'recordId'))
      return send(404, { status: 'error', code: 404, message: 'Resource not Found' });
    send(200, { status: 'success', data: recordOf(found) });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    seen,
    /** The service approves a candidate now, and tells the app as it does: a signed delivery to its receiver. */
    async approve(appUrl: string, candidate: ScaleCandidate): Promise<number> {
      candidate.status = 'approved';
      candidate.since = Date.now();
      const body = JSON.stringify({
        guid: `e2e-${candidate.refId}-${candidate.since}`,
        event: 'review.approved',
        clientId: SCALE_CLIENT_ID,
        recordId: candidate.recordId,
        refId: candidate.refId,
        status: 'approved',
        approvedDate: new Date(candidate.since).toISOString(),
      });
      const signature = createHmac('sha256', SCALE_WEBHOOK_SECRET).update(body).digest('hex');
      const answer = await fetch(`${appUrl}/webhooks/kyc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature': signature },
        body,
      });
      return answer.status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
