import { APP_REQUEST_HEADER } from '../../kyc/contract/api-paths.ts';
import type { z } from '../../kyc/contract/zod.ts';
import { ApiError, apiErrorOf, INTERRUPTED_MESSAGE } from './api-error.ts';
import { sessionRefused } from './session-signal.ts';

/**
 * The contract's schema of an answer, or how to load it. The calls of the first load (the session, the
 * meta) name theirs with `contractSchema`: zod and the schemas arrive while their answer does, rather
 * than being part of the first load.
 */
export type SchemaSource<T> = z.ZodMiniType<T> | (() => Promise<z.ZodMiniType<T>>);

type Contract = typeof import('../../kyc/contract/api.ts');

/** A schema of the `/api` contract (api.ts) by name, loaded the first time an answer is checked. */
export function contractSchema<Name extends keyof Contract>(name: Name): () => Promise<Contract[Name]> {
  return () => import('../../kyc/contract/api.ts').then((contract) => contract[name]);
}

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
  if (!response.ok) {
    const error = await apiErrorOf(response);
    if (error.code === 'unauthenticated' && response.status === 401) sessionRefused(path);
    throw error;
  }
  return response;
}

/**
 * One call answered in JSON, checked with the contract's schema. A `null` schema: the answer carries
 * nothing to read (a sign-out, an audit line written).
 */
export async function apiRequest<T>(path: string, schema: SchemaSource<T>, init?: RequestInit): Promise<T>;
export async function apiRequest(path: string, schema: null, init?: RequestInit): Promise<void>;
export async function apiRequest<T>(path: string, schema: SchemaSource<T> | null, init: RequestInit = {}): Promise<T | undefined> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  // Loaded beside the call, not after it; a failed call leaves it unused.
  const checker = schema === null ? undefined : loadChecker(schema);
  checker?.catch(() => {});
  const response = await apiResponse(path, { ...init, headers });
  if (!checker) {
    await response.body?.cancel();
    return undefined;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('interrupted', INTERRUPTED_MESSAGE, { status: response.status });
  }
  return (await checker)(text, response.status);
}

/** The schema with the code that checks an answer against it (parse-answer.ts: zod's part of the work). */
async function loadChecker<T>(schema: SchemaSource<T>): Promise<(text: string, status: number) => T> {
  try {
    const [{ parseAnswer }, resolved] = await Promise.all([import('./parse-answer.ts'), typeof schema === 'function' ? schema() : schema]);
    return (text, status) => parseAnswer(text, resolved, status);
  } catch {
    throw new ApiError('server_unreachable', 'Part of this page could not be loaded from the server. Check your connection, then reload.');
  }
}

/**
 * The server's event stream at `path` (Server-Sent Events), same-origin with the session cookie. The
 * browser's stream cannot send the app's header: the server accepts it by session and same-origin. It
 * reconnects by itself, sending `Last-Event-ID`, so a page that lost it misses nothing the server kept.
 */
export function openEventStream(path: string): EventSource {
  return new EventSource(path, { withCredentials: false });
}
