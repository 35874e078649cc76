import type http from 'node:http';
import { z } from 'zod';
import { LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';
import { BodyTooLargeError, readBodyBytes } from '../http/request-body.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { DELIVERY_FORMS, type DeliveryForm } from './webhook-sender.ts';

/**
 * Browser tests only (SANDBOX_TEST_CONTROLS=1, refused with a real service): `POST /_test/status` with
 * `{"kind","id","status"}` moves a sandbox candidate to another status, as a reviewer's decision on the
 * real service would, so that a test can watch the candidate page notice it. `POST /_test/reset` puts
 * every candidate back as it was at start (statuses, and the archive-after-extract demonstration), so
 * that a test can run again against the same sandbox. `POST /_test/outage` with `{"after": n}` answers
 * the next n requests, then cuts every connection unanswered, as a service that went down (the proxy
 * finds it unreachable); the reset ends it. `POST /_test/webhook` sends a candidate's webhook in one of the
 * service's other forms.
 */
export const TEST_STATUS_PATH = '/_test/status';
const TEST_RESET_PATH = '/_test/reset';
const TEST_OUTAGE_PATH = '/_test/outage';
/** `{"kind","id","form"}`: the candidate's webhook sent again as it now is, in one of the service's other forms (webhook-sender.ts). */
export const TEST_WEBHOOK_PATH = '/_test/webhook';

const statusChangeSchema = z.object({
  kind: z.enum(LOOKUP_KINDS),
  id: z.string().min(1).max(256),
  status: z.string().regex(/^[a-z_]{1,40}$/),
});

export type SetStatus = (kind: LookupKind, id: string, status: string) => boolean;

/** What the controls act on: a status set, every change undone, an outage begun, a candidate found and its webhook sent in another form. */
export interface TestControls {
  setStatus: SetStatus;
  reset(): void;
  startOutage(after: number): void;
  find(kind: LookupKind, id: string): CandidateRecord | undefined;
  send: ((record: CandidateRecord, form: DeliveryForm) => void) | undefined;
}

/** Answers a control's request (true), or leaves it to the sandbox (false: no control's path). */
export function answerTestControl(req: http.IncomingMessage, res: http.ServerResponse, controls: TestControls): boolean {
  const path = (req.url ?? '').split('?')[0];
  if (path === TEST_STATUS_PATH) handleTestControl(req, res, controls.setStatus);
  else if (path === TEST_RESET_PATH) handleTestReset(req, res, controls.reset);
  else if (path === TEST_OUTAGE_PATH) handleTestOutage(req, res, controls.startOutage);
  else if (path === TEST_WEBHOOK_PATH) handleTestWebhook(req, res, controls);
  else return false;
  return true;
}

function handleTestControl(req: http.IncomingMessage, res: http.ServerResponse, setStatus: SetStatus): void {
  readControl(req, res, statusChangeSchema, 'Send {"kind":"refId","id":"…","status":"approved"}', (change) =>
    setStatus(change.kind, change.id, change.status) ? [200, 'ok'] : [404, 'No such candidate'],
  );
}

const webhookFormSchema = z.object({ kind: z.enum(LOOKUP_KINDS), id: z.string().min(1).max(256), form: z.enum(DELIVERY_FORMS) });

/** Sends a candidate's webhook as it now is, in another form (404: no such candidate); see TEST_WEBHOOK_PATH. */
function handleTestWebhook(req: http.IncomingMessage, res: http.ServerResponse, { find, send }: TestControls): void {
  const usage = `Send {"kind":"refId","id":"…","form":"${DELIVERY_FORMS.join('|')}"}`;
  readControl(req, res, webhookFormSchema, usage, ({ kind, id, form }) => {
    const record = find(kind, id);
    if (!record) return [404, 'No such candidate'];
    if (!send) return [409, 'This sandbox sends no webhooks: it does inside the app (npm start), to its receiver'];
    send(record, form);
    return [200, 'ok'];
  });
}

const outageSchema = z.object({ after: z.number().int().min(0).max(100_000) });

/** `{"after": n}`: the sandbox answers n more requests, then none (see the top of this file). */
function handleTestOutage(req: http.IncomingMessage, res: http.ServerResponse, startOutage: (after: number) => void): void {
  readControl(req, res, outageSchema, 'Send {"after":0}', ({ after }) => {
    startOutage(after);
    return [200, 'ok'];
  });
}

/** A test's outage: after the requests it still answers, each is cut unanswered; `end` (the reset) ends it. */
export function testOutage() {
  let answersLeft: number | undefined;
  return {
    start(after: number): void {
      answersLeft = after;
    },
    end(): void {
      answersLeft = undefined;
    },
    /** Cuts the request's connection when the outage has begun; true when it did. */
    cuts(req: http.IncomingMessage): boolean {
      if (answersLeft === undefined) return false;
      if (answersLeft > 0) {
        answersLeft--;
        return false;
      }
      req.socket.destroy();
      return true;
    },
  };
}

/** A control's POST: its JSON body checked with `schema`, then applied; its answer is plain text. */
function readControl<T>(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  schema: z.ZodType<T>,
  usage: string,
  apply: (body: T) => [number, string],
): void {
  const answer = (code: number, text: string) => {
    res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(text);
  };
  if (req.method !== 'POST') {
    answer(405, 'POST only');
    return;
  }
  // Read as every route reads a body: a control's is a few words, and one of megabytes is refused, not kept.
  readBodyBytes({ req, res }, CONTROL_BODY_LIMIT).then(
    (bytes) => {
      let body: T;
      try {
        body = schema.parse(JSON.parse(bytes.toString('utf8')));
      } catch {
        return answer(400, usage);
      }
      answer(...apply(body));
    },
    (error: unknown) => {
      if (error instanceof BodyTooLargeError) answer(413, `The body is over ${CONTROL_BODY_LIMIT} bytes. ${usage}`);
    },
  );
}

/** The most a control's body may be: `{"kind","id","status"}` with an id of 256 characters fits many times. */
const CONTROL_BODY_LIMIT = 4096;

/** `review_requested` -> `reviewRequestedDate`. */
export function dateFieldOf(status: string): string {
  return `${status.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}Date`;
}

function handleTestReset(req: http.IncomingMessage, res: http.ServerResponse, reset: () => void): void {
  res.writeHead(req.method === 'POST' ? 200 : 405, { 'Content-Type': 'text/plain; charset=utf-8' });
  if (req.method === 'POST') reset();
  res.end(req.method === 'POST' ? 'ok' : 'POST only');
  req.resume();
}
