import { idOfNumber } from '../../kyc/contract/record-id.ts';
import { isPlainObject, kindOf } from '../../kyc/contract/value-kind.ts';

/**
 * Be liberal in what you read, and name what is missing: what a webhook body holds where its required
 * fields are, in words the service's console shows as they are (the refusal's message is all it shows).
 * A field is named with what was expected and the kind of what came, never what it held.
 */

/** The ids a delivery may name, each a string in the documentation. */
const ID_FIELDS = ['guid', 'clientId', 'recordId', 'refId'] as const;
/** The longest an id or the event may be (live-events.ts). */
const MAX_ID_LENGTH = 256;
const MAX_EVENT_LENGTH = 64;

/**
 * The body with each id sent as a whole number read as its digits, by the record's own rule (record-id.ts):
 * the same id as text, nothing guessed (the receiver confirms the candidate with the service under that id
 * before anyone is told). A number past 2^53 is left as it came (its digits were not read exactly), and so
 * is a negative or fractional one, or -0: none is an id, and each is named where it is required.
 */
export function withIdsAsText(body: Record<string, unknown>): Record<string, unknown> {
  let read: Record<string, unknown> | undefined;
  for (const field of ID_FIELDS) {
    const value = Object.hasOwn(body, field) ? body[field] : undefined;
    const id = typeof value === 'number' ? idOfNumber(value) : undefined;
    if (id === undefined) continue;
    read ??= { ...body };
    read[field] = id;
  }
  return read ?? body;
}

/** The service's headers of a delivery, as received (each may be missing, or sent twice: an array). */
export interface DeliveryHeaders {
  delivery?: string | string[] | undefined;
  event?: string | string[] | undefined;
}

/**
 * The body with a `guid` or `event` it lacks taken from the service's headers, which carry the same:
 * `X-Blockpass-Delivery` (the guid is documented as a copy of it) and `X-Blockpass-Event`. Only a field
 * missing or empty in the body is filled, and only from one header value that is text within the field's
 * bound; the body's own is never replaced. The headers are not signed, but nothing read from them is
 * believed: a delivery is a hint the service's own record confirms before anyone is told (delivery-check.ts).
 */
export function withHeaderFields(body: Record<string, unknown>, headers: DeliveryHeaders): Record<string, unknown> {
  const fill: Array<[string, unknown, number]> = [
    ['guid', headers.delivery, MAX_ID_LENGTH],
    ['event', headers.event, MAX_EVENT_LENGTH],
  ];
  let read: Record<string, unknown> | undefined;
  for (const [field, value, max] of fill) {
    const own = Object.hasOwn(body, field) ? body[field] : undefined;
    if ((own !== undefined && own !== null && own !== '') || typeof value !== 'string' || !value || value.length > max) continue;
    read ??= { ...body };
    read[field] = value;
  }
  return read ?? body;
}

/**
 * Why a body read as JSON (its ids as withIdsAsText reads them) is neither a ping nor a delivery: the
 * first required field that is missing or cannot be read, by its name and what was expected.
 */
export function whyNotADelivery(json: unknown): string {
  if (!isPlainObject(json)) return `it is ${kindOf(json)}, not a JSON object`;
  const isPing = json.isPing === true || json.isPing === 'true';
  // A test delivery needs its client id only: it names no candidate.
  const required: [string, number][] = isPing
    ? [['clientId', MAX_ID_LENGTH]]
    : [
        ['guid', MAX_ID_LENGTH],
        ['event', MAX_EVENT_LENGTH],
        ['clientId', MAX_ID_LENGTH],
      ];
  for (const [field, max] of required) {
    const why = whyNotText(ownField(json, field), max);
    if (why) return why.missing ? `${field} is missing (${why.text})` : `${field}: ${why.text}`;
  }
  const recordId = whyNotText(ownField(json, 'recordId'), MAX_ID_LENGTH);
  const refId = whyNotText(ownField(json, 'refId'), MAX_ID_LENGTH);
  if (recordId && refId) {
    const said = (why: { missing: boolean; text: string }) => (why.missing ? 'missing' : why.text);
    return `neither recordId (${said(recordId)}) nor refId (${said(refId)}) names the candidate`;
  }
  return 'its fields are not of a delivery’s shape';
}

const ownField = (json: Record<string, unknown>, field: string): unknown => (Object.hasOwn(json, field) ? json[field] : undefined);

/** What is wrong with a field that must be non-empty text of at most `max` characters; undefined when nothing is. */
function whyNotText(value: unknown, max: number): { missing: boolean; text: string } | undefined {
  if (value === undefined || value === null || value === '') return { missing: true, text: 'text expected' };
  if (typeof value !== 'string') return { missing: false, text: `text expected, ${kindOf(value)} found` };
  if (value.length > max) return { missing: false, text: `at most ${max} characters expected, ${value.length} found` };
  return undefined;
}
