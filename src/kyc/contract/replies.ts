import { fieldText } from './other-forms.ts';
import { z } from './zod.ts';

/**
 * Customer-facing replies per status, for support users' "Copy reply". Built-in defaults;
 * `replyTemplates` in CONFIG_FILE replaces them per status. A reply of `null` means "do not reply": only the
 * internal note is shown. A status may have several templates: its own (key `rejected`) and others beside
 * it (`rejected:short`), offered in that order, the agent choosing one in the reply editor.
 */
export interface ReplyTemplate {
  reply: string | null;
  /** For the agent, never for the customer. */
  note?: string;
  /** What the reply editor calls it among the status's templates (else "Standard", or the key's part after `:`). */
  name?: string;
}

/**
 * Placeholders a template may use, beside `{field:<name>}` (a support field, supportFields in
 * CONFIG_FILE). Never names or identity data: a reply goes to whoever asks.
 */
export const REPLY_PLACEHOLDERS = ['refId', 'recordId', 'status', 'since'] as const;

/** `*` answers every status without its own template. */
export const FALLBACK_STATUS = '*';

/** A template's key: a status (or `*`), and after `:` the name of one of its other templates. */
export const TEMPLATE_KEY = /^(\*|[a-z_]{1,40})(:[a-z0-9_-]{1,40})?$/;

/**
 * The built-in replies, each saying what the candidate page says of that status (status.ts's
 * descriptions): `incomplete` is checks still running, not a form to finish; `rejected` is a new
 * submission and `review_requested` a new review, each with the operator's reason and hint when the
 * environment shows them to support users (`{field:…}`: what the record says, not "we will let you know"
 * alone). Each sentence with a placeholder stands alone, so that one without a value drops out cleanly.
 * `blocked` has no reply of its own, only the note, and a neutral one that says nothing of the reason.
 */
export const DEFAULT_REPLIES: Record<string, ReplyTemplate> = {
  incomplete: {
    reply:
      'Thank you for getting in touch. We have your identity verification, and its automatic checks are still running. They have been running since {since}. We will let you know as soon as they are done.\n\nYour reference: {refId}',
  },
  waiting: {
    reply:
      'Thank you for your patience. We have received your identity verification and it is waiting to be reviewed. It has been waiting since {since}. We will let you know as soon as the review is done.\n\nYour reference: {refId}',
  },
  inreview: {
    reply:
      'Your identity verification is being reviewed right now. The review started on {since}. We will let you know as soon as the review is done.\n\nYour reference: {refId}',
  },
  review_requested: {
    reply:
      'Your identity verification is being reviewed again. The new review was requested on {since}.\nThe reason: {field:reviewReason}\nWhat to do: {field:resubmitHint}\nWe will let you know as soon as the review is done.\n\nYour reference: {refId}',
  },
  approved: {
    reply:
      'Good news: your identity verification has been approved. It was approved on {since}. There is nothing more you need to do.\n\nYour reference: {refId}',
  },
  rejected: {
    reply:
      'We could not complete your identity verification with the information provided, so it needs to be submitted again. It was declined on {since}.\nThe reason: {field:rejectionReason}\nWhat to do: {field:resubmitHint}\nPlease submit your verification again.\n\nYour reference: {refId}',
  },
  blocked: { reply: null, note: 'Do not disclose the reason; escalate to compliance.' },
  'blocked:neutral': {
    name: 'Neutral',
    reply:
      'Thank you for getting in touch. We have your identity verification, and we are not able to share more about it at the moment. Our team will contact you if anything more is needed.\n\nYour reference: {refId}',
    note: 'Do not disclose the reason; escalate to compliance.',
  },
  [FALLBACK_STATUS]: {
    reply:
      'Thank you for getting in touch. We are looking into the status of your identity verification and will get back to you.\n\nYour reference: {refId}',
  },
};

/** `{refId}`, `{field:rejectionReason}`: a name, or `field:` and a custom field's name. */
const PLACEHOLDER = /\{(field:[A-Za-z][A-Za-z0-9_.-]{0,63}|[A-Za-z]+)\}/g;

const knownPlaceholder = (name: string) => name.startsWith('field:') || (REPLY_PLACEHOLDERS as readonly string[]).includes(name);

const templateText = z.string().check(
  z.minLength(1, 'must not be empty (use null for no reply)'),
  z.maxLength(2000, 'must be at most 2000 characters'),
  z.refine(
    (text) => [...text.matchAll(PLACEHOLDER)].every((m) => knownPlaceholder(m[1]!)),
    `may use only the placeholders ${REPLY_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')} and {field:<custom field>}`,
  ),
);

/** The file: `{ "<status>[:<name>]": "reply" | null | { "reply": "…" | null, "note"?: "…", "name"?: "…" } }`. */
export const replyTemplatesFileSchema = z.record(
  z.string().check(z.regex(TEMPLATE_KEY, 'must be a status such as "approved", "*", or another template of one such as "blocked:neutral"')),
  z.union([
    z.nullable(templateText),
    z.object({
      reply: z.nullable(templateText),
      note: z.optional(templateText),
      name: z.optional(
        z.string().check(z.regex(/^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,39}$/u, 'must be a short name (letters, digits, spaces)')),
      ),
    }),
  ]),
);

export const replyTemplatesSchema = z.record(
  z.string(),
  z.object({ reply: z.nullable(z.string()), note: z.optional(z.string()), name: z.optional(z.string()) }),
);

const statusOfKey = (key: string) => key.split(':')[0]!;

/**
 * The file's templates over the defaults. A status's own entry in the file (`blocked`) replaces every
 * built-in template of that status, its others included (`blocked: null` leaves no neutral reply behind);
 * another template of a status (`rejected:short`) is added beside the built-in ones.
 */
export function mergeReplyTemplates(file: z.infer<typeof replyTemplatesFileSchema>): Record<string, ReplyTemplate> {
  const replaced = new Set(Object.keys(file).filter((key) => !key.includes(':')));
  const merged = Object.fromEntries(Object.entries(DEFAULT_REPLIES).filter(([key]) => !replaced.has(statusOfKey(key))));
  for (const [key, value] of Object.entries(file)) {
    merged[key] = value === null || typeof value === 'string' ? { reply: value } : value;
  }
  return merged;
}

export interface ReplyValues {
  refId?: string | null;
  recordId?: string | null;
  /** The status as the page names it ("Rejected"). */
  status?: string;
  /** The date of the current status, already formatted for the customer. */
  since?: string;
  /**
   * The support fields the answer held, by name (`{field:<name>}`): the map as read (record.customFields),
   * never a copy, as it holds the text each number was sent as (number-text.ts).
   */
  fields?: Readonly<Record<string, string | number | boolean | null>>;
}

/**
 * A reply for a status, filled in, with the key of the template it came from (`rejected`, `blocked:neutral`,
 * or `*`): the audit line names it, never the text.
 */
export interface FilledReply extends ReplyTemplate {
  template: string;
  /** What the editor calls it: the template's name, else "Standard" for a status's own, else the part after `:`. */
  name: string;
}

/**
 * Every template for a status, in the order of the templates (its own first), each filled in as
 * fillTemplate says; the fallback's (`*`, `*:…`) when the status has none.
 */
export function repliesFor(templates: Record<string, ReplyTemplate>, status: string, values: ReplyValues): FilledReply[] {
  const keys = templateKeysOf(templates, status);
  if (keys.length === 0) return [filled(FALLBACK_STATUS, DEFAULT_REPLIES[FALLBACK_STATUS]!, values)];
  return keys.map((key) => filled(key, templates[key]!, values));
}

/** The keys of a status's templates, its own first; the fallback's (`*`, `*:…`) when it has none. */
function templateKeysOf(templates: Record<string, ReplyTemplate>, status: string): string[] {
  const keysOf = (of: string) =>
    Object.keys(templates)
      .filter((key) => statusOfKey(key) === of)
      .sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  const own = keysOf(status);
  return own.length > 0 ? own : keysOf(FALLBACK_STATUS);
}

/**
 * The support fields that belong to a status, as its reply templates say: a field a template uses
 * (`{field:rejectionReason}`) belongs to the statuses whose templates use it, and a field no template
 * uses to every status (nothing says otherwise). With the built-in replies a rejection reason is a
 * rejected candidate's, a review reason a review-requested one's, and a blocked or waiting candidate has
 * none of them: "Not recorded: Review reason." under Rejected read as if something were missing.
 */
export function fieldsOfStatus(templates: Record<string, ReplyTemplate>, status: string, fields: readonly string[]): string[] {
  const usedBy = (keys: readonly string[]) =>
    new Set(
      keys.flatMap((key) =>
        [templates[key]!.reply ?? '', templates[key]!.note ?? ''].flatMap((text) =>
          [...text.matchAll(PLACEHOLDER)].flatMap((match) => (match[1]!.startsWith('field:') ? [match[1]!.slice('field:'.length)] : [])),
        ),
      ),
    );
  const ofStatus = usedBy(templateKeysOf(templates, status));
  const ofAny = usedBy(Object.keys(templates));
  return fields.filter((field) => ofStatus.has(field) || !ofAny.has(field));
}

function filled(key: string, template: ReplyTemplate, values: ReplyValues): FilledReply {
  const variant = key.split(':')[1];
  const name = template.name ?? (variant ? variant.charAt(0).toUpperCase() + variant.slice(1).replace(/[_-]+/g, ' ') : 'Standard');
  return {
    template: key,
    name,
    reply: template.reply === null ? null : fillTemplate(template.reply, values),
    ...(template.note ? { note: fillTemplate(template.note, values) } : {}),
  };
}

/**
 * A placeholder's value, or undefined when it has none (no such id, no date, a field empty or not answered).
 * A field's number is written as the card "What the service recorded" writes it (fieldText): as the service
 * sent it where its text was kept, else with the card's words that its last digits may differ. String()
 * wrote an account number 12345678901234567890 as 12345678901234567000 into a reply to the customer.
 */
function placeholderValue(name: string, values: ReplyValues): string | undefined {
  let value: string | number | boolean | null | undefined;
  if (name.startsWith('field:')) {
    const field = name.slice('field:'.length);
    value = values.fields && Object.hasOwn(values.fields, field) ? values.fields[field] : undefined;
    if (typeof value === 'number') return fieldText(values.fields, field, value);
  } else if (Object.hasOwn(values, name)) {
    value = values[name as keyof Omit<ReplyValues, 'fields'>];
  }
  if (value === null || value === undefined) return undefined;
  const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value).trim();
  return text === '' ? undefined : text;
}

/**
 * A template filled in. The rule for a placeholder with no value: the sentence holding it is left out
 * (a sentence ends at `.`, `!` or `?` before a space or the line's end, or at the line's end), and a line
 * left with no sentence is left out too; blank lines between paragraphs stay, one at most. So a reply
 * never shows `{…}`, "undefined" or a dangling "Your reference: ".
 */
export function fillTemplate(text: string, values: ReplyValues): string {
  const lines = text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [''];
    const kept = sentencesOf(line).flatMap((sentence) => {
      let missing = false;
      const filled = sentence.replace(PLACEHOLDER, (_, name: string) => {
        const value = placeholderValue(name, values);
        if (value === undefined) missing = true;
        return value ?? '';
      });
      return missing ? [] : [filled];
    });
    return kept.length === 0 ? [] : [kept.join('').trimEnd()];
  });
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A line's sentences, each with the spaces after it: ends at `.`, `!` or `?` followed by a space or the end, never inside `{…}`. */
function sentencesOf(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let inPlaceholder = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === '{') inPlaceholder = true;
    else if (char === '}') inPlaceholder = false;
    else if (!inPlaceholder && '.!?'.includes(char) && (i + 1 === line.length || /\s/.test(line[i + 1]!))) {
      let end = i + 1;
      while (end < line.length && /\s/.test(line[end]!)) end++;
      sentences.push(line.slice(start, end));
      start = end;
      i = end - 1;
    }
  }
  if (start < line.length) sentences.push(line.slice(start));
  return sentences;
}
