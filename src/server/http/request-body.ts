import type http from 'node:http';
import { ApiFailure } from './api-failure.ts';

/**
 * Reading a request's body, the one way every route does it, so that the same body gets the same answer
 * everywhere: over its route's limit `413 body_too_large`, not JSON or not of the route's shape `400
 * bad_request` with a sentence, and nothing at all to a client that left before sending it whole.
 */

/** The body is over its route's limit: by its `Content-Length`, or by what arrived. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`The body is over ${limit} bytes.`);
  }
}

/** The body did not arrive within its route's deadline. */
export class BodyTimeoutError extends Error {
  override name = 'BodyTimeoutError';
}

/** The client left (closed or reset its connection) before its body was whole: there is nobody to answer. */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
}

/** A request and the response that will answer it: a refused body must say `Connection: close` on it. */
export interface BodyCall {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  /**
   * The body must arrive within this once read (limits.apiBodyTimeoutMs, set on every API call by the
   * handler): a body trickled in must not hold its connection for Node's whole-request deadline.
   */
  bodyTimeoutMs?: number;
}

/**
 * The refusal of a body over its limit must reach the client. Cutting the connection while the body
 * still arrives lost it (the client saw a reset, never the 413), so nothing here cuts anything: the
 * response is marked `Connection: close` and the rest of the body is no longer read, then the route
 * answers 413 and Node closes the connection once that answer is written (after `res.end`).
 */
function refuseTooLarge(call: BodyCall): void {
  if (!call.res.headersSent) call.res.setHeader('connection', 'close');
  call.req.pause();
}

/** The declared length, when the request declares one that can be read. */
function declaredLength(req: http.IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * The request body's raw bytes (a webhook's signature is over them); rejects with a BodyTooLargeError
 * past `limit` bytes, at once when `Content-Length` says so (nothing of it read), with a ClientGoneError
 * when the client leaves first. With `deadlineMs`, a body still arriving then rejects with a
 * BodyTimeoutError (the route answers, and says `Connection: close`).
 */
export function readBodyBytes(call: BodyCall, limit: number, deadlineMs?: number): Promise<Buffer> {
  const { req } = call;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      chunks.length = 0;
      if (error) reject(error);
    };
    const tooLarge = () => {
      refuseTooLarge(call);
      settle(new BodyTooLargeError(limit));
    };
    const deadline =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => settle(new BodyTimeoutError(`The body did not arrive within ${deadlineMs} ms.`)), deadlineMs);
    if ((declaredLength(req) ?? 0) > limit) return tooLarge();
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      tooLarge();
    });
    req.on('end', () => {
      if (settled) return;
      const body = Buffer.concat(chunks);
      settle();
      resolve(body);
    });
    req.on('error', () => settle(new ClientGoneError('The client left before its body arrived.')));
    req.on('close', () => {
      if (!req.complete) settle(new ClientGoneError('The client left before its body arrived.'));
    });
  });
}

/** The request body as text, read as `readBodyBytes` reads it, within the call's deadline if it has one. */
export function readBody(call: BodyCall, limit: number): Promise<string> {
  return readBodyBytes(call, limit, call.bodyTimeoutMs).then((bytes) => bytes.toString('utf8'));
}

/** A schema the body is checked against (zod's safeParse). */
export interface BodySchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** What a route says of its own body, where the plain sentences would say less. */
export interface BodySentences {
  /** Over the limit (default: "The <what> is too large: at most N bytes."). */
  tooLarge?: string;
  /** Not of the route's shape (default: the first thing wrong, and where). */
  shape?: string;
  /** What an empty body stands for (a body that may be left out); without it an empty body is not JSON. */
  empty?: unknown;
}

/**
 * A JSON body of at most `limit` bytes, checked against `schema`; `what` names it in the sentences
 * ("the export"). Throws the refusal as an ApiFailure (413 `body_too_large`, 400 `bad_request`, 408
 * `request_timeout` past the call's deadline, its connection then closed), and a ClientGoneError when the
 * client left (nothing is sent: sendThrown).
 */
export async function readJsonBody<T>(
  call: BodyCall,
  limit: number,
  schema: BodySchema<T>,
  what: string,
  sentences: BodySentences = {},
): Promise<T> {
  let text: string;
  try {
    text = await readBody(call, limit);
  } catch (error) {
    if (error instanceof BodyTimeoutError) {
      // Answered, then closed (Node reads no further): a body trickled in holds nothing past its deadline.
      if (!call.res.headersSent) call.res.setHeader('connection', 'close');
      throw new ApiFailure('request_timeout', `The ${what} did not arrive within ${call.bodyTimeoutMs} ms: send it again.`);
    }
    if (!(error instanceof BodyTooLargeError)) throw error;
    throw new ApiFailure('body_too_large', sentences.tooLarge ?? `The ${what} is too large: at most ${limit} bytes.`);
  }
  let json: unknown;
  try {
    json = text === '' && 'empty' in sentences ? sentences.empty : JSON.parse(text);
  } catch {
    throw new ApiFailure('bad_request', `The ${what} is not valid JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  if (sentences.shape) throw new ApiFailure('bad_request', sentences.shape);
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new ApiFailure('bad_request', `The ${what} cannot be read: ${where}${issue?.message ?? 'not of its shape'}.`);
}
