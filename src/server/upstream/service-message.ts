import type http from 'node:http';
import type { KeySearch } from '../answer/key-watch.ts';
import { type ErrorBody, errorBodyValue } from './error-body.ts';
import { type NotFoundMeaning, notFoundMeaning } from './not-found.ts';
import { askedWaitOf, serviceWaitOf } from './service-wait.ts';

/**
 * The service's own reason in an error answer, for the page. Its error envelope is
 * `{"status":"error","message":"Invalid refId","code":400}` (upstream-api-facts.md): that message is the
 * one thing that tells a reviewer why a request was refused, so it is passed on, quoted. Nothing else of
 * an error body is: it is whatever answered (the service, a gateway, a proxy), so its words are cut to
 * MAX_SERVICE_MESSAGE characters, cleaned of what can hide or reorder text (controls, direction
 * overrides, zero-width characters), and withheld whole when they hold either of this server's API keys
 * (a proxy that echoes the request's headers): a key must never reach a page.
 */

/** The most of the service's message shown: its own are a few words ("Invalid refId", "Resource not Found"). */
export const MAX_SERVICE_MESSAGE = 200;

/**
 * What the service's message comes to: its cleaned words, or that it was withheld for holding a key, or
 * that the body was longer than what is read of it (error-body.ts) and no whole message was in that part.
 */
export type ServiceMessage = { text: string } | { withheld: true } | { tooLong: true };

/**
 * Controls (line breaks included), format characters (direction overrides and isolates, zero-width
 * characters, the BOM), line and paragraph separators, lone surrogates, private-use characters.
 */
const UNSEEN = /[\p{C}\p{Zl}\p{Zp}]/gu;

/** The message of a value that is the service's error envelope; undefined for any other value. */
export function serviceMessage(value: unknown, keys: KeySearch): ServiceMessage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { status } = value as { status?: unknown };
  const message = messageOf(value);
  if (status !== 'error' || message === undefined) return undefined;
  // The key is looked for as sent and with every hidden or spacing character taken out, which could split it.
  const squeezed = message.replace(UNSEEN, '').replace(/\s+/g, '');
  if (keys.texts.some((key) => message.includes(key) || squeezed.includes(key))) return { withheld: true };
  const clean = message.replace(UNSEEN, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  const characters = Array.from(clean);
  if (characters.length <= MAX_SERVICE_MESSAGE) return { text: clean };
  const cut = characters
    .slice(0, MAX_SERVICE_MESSAGE - 1)
    .join('')
    .trimEnd();
  return { text: `${cut}…` };
}

/**
 * The envelope's `message`, or, without one, the `message` of an `error` object nested in it
 * (`{"status":"error","error":{"message":"Internal","code":"E_DB"}}`): read alike, bounded alike.
 */
function messageOf(value: object): string | undefined {
  const { message, error } = value as { message?: unknown; error?: unknown };
  if (typeof message === 'string') return message;
  const nested = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof nested === 'string' ? nested : undefined;
}

/**
 * The message of an error body read (at most a few KiB, readErrorBody), searched for the keys in every
 * form first. A body longer than that shows the message when it was read whole in its first bytes.
 */
export function serviceMessageIn(body: ErrorBody | undefined, keys: KeySearch): ServiceMessage | undefined {
  const message = serviceMessage(errorBodyValue(body), keys);
  if (!message) return body?.cut ? { tooLong: true } : undefined;
  // Its raw bytes too: a key in base64, or escaped in a way the decoded text would not show.
  return 'text' in message && body && keys.needles.in(body.bytes) ? { withheld: true } : message;
}

/** The service's words in a sentence of ours: `: "Invalid refId"`, or why they are not shown, or nothing. */
export function quoted(message: ServiceMessage | undefined): string {
  if (!message) return '';
  if ('withheld' in message) return " (its message is not shown: it holds this server's API key)";
  if ('tooLong' in message) return ' (its message is too long to show)';
  return `: "${message.text}"`;
}

/** What an error answer said beyond its status: the wait it asked for (serviceWaitSeconds), what a 404 means (not-found.ts), its message. */
export interface ServiceSaid {
  waitSeconds?: number | undefined;
  /** The wait as the service asked for it, before the cap (askedWaitOf): its words say when it asked for longer. */
  askedSeconds?: number | undefined;
  notFound?: NotFoundMeaning | undefined;
  message?: ServiceMessage | undefined;
}

/** ServiceSaid of an error answer, from its headers and the body read (undefined when it was not). */
export function saidIn(upstreamRes: http.IncomingMessage, status: number, body: ErrorBody | undefined, keys: KeySearch): ServiceSaid {
  const value = errorBodyValue(body);
  return {
    waitSeconds: serviceWaitOf(upstreamRes.headers['retry-after'], value),
    askedSeconds: askedWaitOf(upstreamRes.headers['retry-after'], value),
    message: serviceMessageIn(body, keys),
    ...(status === 404 ? { notFound: notFoundMeaning(upstreamRes.headers, value) } : {}),
  };
}

/**
 * ServiceSaid of the error envelope a successful answer carried (upstream-failures.ts), read by the
 * answer's own readers, which have searched all of it for the keys; `cut`: only its first bytes were read.
 */
export function saidInEnvelope(
  headers: http.IncomingHttpHeaders,
  status: number | undefined,
  value: unknown,
  keys: KeySearch,
  cut: boolean,
): ServiceSaid {
  return {
    waitSeconds: serviceWaitOf(headers['retry-after'], value),
    askedSeconds: askedWaitOf(headers['retry-after'], value),
    message: serviceMessage(value, keys) ?? (cut ? { tooLong: true } : undefined),
    ...(status === 404 ? { notFound: notFoundMeaning(headers, value) } : {}),
  };
}
