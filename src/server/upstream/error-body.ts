import type http from 'node:http';
import { ERROR_BODY_MAX_BYTES } from '../answer/answer-guard.ts';

/**
 * The body of an error answer of the service: read bounded in size and in time, and read as far as it
 * goes. Its envelope, `{"status":"error","message":"Invalid refId","code":400}` (upstream-api-facts.md),
 * is what tells a reviewer why a request was refused and how long a 429 asks to wait: its message and its
 * wait are read from it (service-message.ts, service-wait.ts).
 */

/**
 * How long an error answer's body may take to arrive once its status line has: the envelope is one
 * small packet, so 2 s is ample. Past it the answer is given from the status and headers alone: a body
 * trickled a byte at a time held the lookup (and its user's slot) until the whole answer's 15 s deadline.
 */
export const ERROR_BODY_DEADLINE_MS = 2000;

/** What was read of an error body: its bytes, and whether it went on past them (`cut`: longer than what is read). */
export interface ErrorBody {
  bytes: Buffer;
  cut: boolean;
}

/**
 * An error answer's body, at most `maxBytes` of it: resolves with the bytes once it ends, or with the
 * first `maxBytes` (cut) when it is longer, declared or sent, the rest unread; undefined when it breaks off
 * or fails. Never rejects; the caller's deadline bounds the time (ERROR_BODY_DEADLINE_MS).
 */
export function readErrorBody(res: http.IncomingMessage, maxBytes = ERROR_BODY_MAX_BYTES): Promise<ErrorBody | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      if (size + chunk.length <= maxBytes) {
        size += chunk.length;
        return void chunks.push(chunk);
      }
      chunks.push(chunk.subarray(0, maxBytes - size));
      resolve({ bytes: Buffer.concat(chunks), cut: true });
      res.destroy();
    });
    res.on('end', () => resolve({ bytes: Buffer.concat(chunks), cut: false }));
    res.on('error', () => resolve(undefined));
    res.on('close', () => resolve(undefined));
  });
}

/**
 * The value an error body holds: the whole body as JSON.parse reads it, or of a body cut by the bound, the
 * members of its top-level object that were read whole (`{"status":"error","message":"Busy","extra":{…`
 * gives status and message). Undefined when nothing of it can be read.
 */
export function errorBodyValue(body: ErrorBody | undefined): unknown {
  if (!body || body.bytes.length === 0) return undefined;
  const text = body.bytes.toString('utf8');
  if (body.cut) return membersRead(text);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const WS = /^[ \t\r\n]*/;
/** A JSON string, whole: its closing quote read. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string holds no raw control character, so one ends the reading
const STRING = /^"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/;
/** A number or literal, whole: followed by what may follow a value (a number cut by the bound is not). */
const SCALAR = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?=[ \t\r\n,}\]])/;

/** The members of the object `text` opens that end within it; the first one that does not ends the reading. */
function membersRead(text: string): Record<string, unknown> | undefined {
  let rest = text.replace(/^\uFEFF/, '').replace(WS, '');
  if (!rest.startsWith('{')) return undefined;
  const members: Record<string, unknown> = {};
  rest = rest.slice(1);
  for (;;) {
    rest = rest.replace(WS, '');
    const name = STRING.exec(rest);
    if (!name) return members;
    rest = rest.slice(name[0].length).replace(WS, '');
    if (!rest.startsWith(':')) return members;
    rest = rest.slice(1).replace(WS, '');
    const length = valueLength(rest);
    if (length === undefined) return members;
    Object.defineProperty(members, JSON.parse(name[0]) as string, {
      value: JSON.parse(rest.slice(0, length)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    rest = rest.slice(length).replace(WS, '');
    if (!rest.startsWith(',')) return members;
    rest = rest.slice(1);
  }
}

/** How long the JSON value `text` starts with is, when it ends within `text`; undefined when it does not (or is not JSON). */
function valueLength(text: string): number | undefined {
  const whole = STRING.exec(text) ?? SCALAR.exec(text);
  if (whole) return whole[0].length;
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      const string = STRING.exec(text.slice(at));
      if (!string) return undefined;
      at += string[0].length - 1;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return isJson(text.slice(0, at + 1)) ? at + 1 : undefined;
    }
  }
  return undefined;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
