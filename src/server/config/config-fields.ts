import { z } from 'zod';
import { isCidr } from '../http/cidr.ts';
import { isLoopbackHost } from '../http/loopback.ts';

/** Settings that appear both in the quick-start variables and in an environment of CONFIG_FILE: one rule each. */

// Sent in a request line or header: control characters would make the request invalid.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const headerSafe = z
  .string()
  .refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain control characters or line breaks');

// The whole value of the Authorization header: visible ASCII only (a pasted zero-width space or a
// line break is a mistake that Node would refuse at the first lookup).
export const apiKey = z.string().regex(/^[\x21-\x7e]+$/, 'must be the key as issued: visible ASCII characters, no spaces or line breaks');

export const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as https://kyc.blockpass.org' })
  .refine((url) => !URL.canParse(url) || (!new URL(url).search && !new URL(url).hash), 'must not contain a query string or fragment')
  // The key is the one credential sent (as Authorization): a user name or password here would not be
  // used, and would be printed wherever the address is (the start banner).
  .refine(
    (url) => !URL.canParse(url) || (!new URL(url).username && !new URL(url).password),
    'must not contain a user name or password (https://user:…@host): the API key is the only credential sent',
  );

/** http:// to another machine: the key would cross the network unencrypted. */
export function isPlainHttpToRemote(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}

/** An environment's name, as it appears in URLs (`/e/<name>/…`). */
export const environmentName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1 to 32 lower-case letters, digits or "-", starting with a letter or digit');

export const environmentLabel = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .refine((value) => !CONTROL_CHARACTER.test(value), 'must not contain control characters');

/** `https://dashboard.example.com/candidates/{recordId}`: the service's own console, one click away. */
export const dashboardUrl = z
  .string()
  .refine((template) => /\{(recordId|refId)\}/.test(template), 'must contain {recordId} or {refId}')
  .refine((template) => {
    const sample = template.replaceAll('{recordId}', 'x').replaceAll('{refId}', 'x');
    return URL.canParse(sample) && /^https?:$/.test(new URL(sample).protocol);
  }, 'must be an http:// or https:// URL, such as https://dashboard.example.com/kyc/{recordId}');

/** The hosts of Blockpass's KYC Connect: its operator console is at the same address, under `/kyc/dashboard`. */
const BLOCKPASS_HOST = /(^|\.)blockpass\.org$/i;

/**
 * The console's candidate page where an environment names none: for a Blockpass service (its `baseUrl`
 * on blockpass.org), `<baseUrl>/kyc/dashboard/#/<clientId>/kyc_detail/{recordId}`, the address its
 * operators open a record at (upstream-api-facts.md); for any other service none, as its console is not known.
 */
export function defaultDashboardUrl(baseUrl: string, clientId: string): string | undefined {
  if (!URL.canParse(baseUrl) || !BLOCKPASS_HOST.test(new URL(baseUrl).hostname)) return undefined;
  return `${baseUrl.replace(/\/+$/, '')}/kyc/dashboard/#/${encodeURIComponent(clientId)}/kyc_detail/{recordId}`;
}

/** `a, b,,c` as `['a', 'b', 'c']`: each part of a comma-separated value trimmed, empty parts dropped. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** `127.0.0.1/32,10.0.0.0/8`: addresses or CIDRs, comma-separated. */
/**
 * A custom field support users may see (supportFields, SUPPORT_FIELDS): a name as the service's custom
 * fields use them, starting with a letter (so never `__proto__`), at most 64 characters.
 */
const SUPPORT_FIELD = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const SUPPORT_FIELD_PROBLEM =
  'must be custom field names such as rejectionReason: a letter, then letters, digits, "_", "-" or "." (at most 64)';
const unique = (list: readonly string[]) => new Set(list).size === list.length;

export const supportFieldList = z
  .array(z.string().regex(SUPPORT_FIELD, SUPPORT_FIELD_PROBLEM))
  .min(1, 'must name at least one custom field, such as ["rejectionReason", "resubmitHint"]')
  .max(20, 'must name at most 20 custom fields')
  .refine(unique, 'must not name a field twice');

/** SUPPORT_FIELDS: the same, as a comma list. */
export const supportFieldsVariable = z.string().transform(commaList).pipe(supportFieldList);

export const cidrList = z
  .string()
  .transform(commaList)
  .refine((list) => list.every(isCidr), 'must be a comma-separated list of addresses or CIDRs, such as 127.0.0.1/32,10.0.0.0/8');

// An empty value (`KYC_BASE_URL=` in a copied .env.example) means unset.
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

export const integer = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
