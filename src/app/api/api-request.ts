import { APP_REQUEST_HEADER } from '../../kyc/contract/api.ts';
import { z } from '../../kyc/contract/zod.ts';
import { ApiError, apiErrorOf } from './api-error.ts';

/**
 * Every call of the app to this server's `/api`: with the header the server requires of the app's own
 * pages, and the session cookie. Answers the response when it is a success; otherwise throws an ApiError
 * that says what went wrong (an aborted call rethrows the abort). Callers that read an answer whole use
 * apiRequest; those that read it as it streams (a lookup in parts, a batch) use this.
 */
export async function apiResponse(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(APP_REQUEST_HEADER.name, APP_REQUEST_HEADER.value);
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init, headers });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('server_unreachable', 'The Candidate Lookup server could not be reached. Check your connection.');
  }
  if (!response.ok) throw await apiErrorOf(response);
  return response;
}

/**
 * One call answered in JSON, checked with the contract's schema. A `null` schema: the answer carries
 * nothing to read (a sign-out, an audit line written).
 */
export async function apiRequest<T>(path: string, schema: z.ZodMiniType<T>, init?: RequestInit): Promise<T>;
export async function apiRequest(path: string, schema: null, init?: RequestInit): Promise<void>;
export async function apiRequest<T>(path: string, schema: z.ZodMiniType<T> | null, init: RequestInit = {}): Promise<T | undefined> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  const response = await apiResponse(path, { ...init, headers });
  if (schema === null) {
    await response.body?.cancel();
    return undefined;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('interrupted', 'The connection broke while the answer was downloading. Try again.', { status: response.status });
  }
  return parseAnswer(text, schema, response.status);
}

/** A successful answer's text: JSON in the shape of the schema, or an ApiError saying why not. */
export function parseAnswer<T>(text: string, schema: z.ZodMiniType<T>, status?: number): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('not_json', 'The server sent an answer that is not JSON.', { status, detail: text.slice(0, 200) });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError('malformed', 'The answer does not have the expected shape.', { status, detail: z.prettifyError(parsed.error) });
  }
  return parsed.data;
}
