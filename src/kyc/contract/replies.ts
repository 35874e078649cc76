import { z } from './zod.ts';

/**
 * Customer-facing replies per status, for support users' "Copy reply". Built-in neutral defaults;
 * `REPLY_TEMPLATES_FILE` replaces them per status. A reply of `null` means "do not reply": only the
 * internal note is shown.
 */
export interface ReplyTemplate {
  reply: string | null;
  /** For the agent, never for the customer. */
  note?: string;
}

/** Placeholders a template may use. Never names or identity data: a reply goes to whoever asks. */
export const REPLY_PLACEHOLDERS = ['refId', 'recordId', 'since'] as const;

/** `*` answers every status without its own template. */
export const FALLBACK_STATUS = '*';

export const DEFAULT_REPLIES: Record<string, ReplyTemplate> = {
  incomplete: {
    reply:
      'Thank you for getting in touch. Your identity verification is not complete yet: please finish the remaining steps in the verification form.',
  },
  waiting: {
    reply:
      'Thank you for your patience. We have received your identity verification and it is waiting to be reviewed. We will let you know as soon as the review is done.',
  },
  inreview: { reply: 'Your identity verification is being reviewed right now. We will let you know as soon as the review is done.' },
  review_requested: {
    reply: 'Your identity verification is being reviewed again. We will let you know as soon as the review is done.',
  },
  approved: { reply: 'Good news: your identity verification has been approved. There is nothing more you need to do.' },
  rejected: {
    reply:
      'We could not complete your identity verification with the information provided. Please follow the instructions we sent you, then submit your verification again.',
  },
  blocked: { reply: null, note: 'Do not disclose the reason; escalate to compliance.' },
  [FALLBACK_STATUS]: {
    reply: 'Thank you for getting in touch. We are looking into the status of your identity verification and will get back to you.',
  },
};

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

const templateText = z.string().check(
  z.minLength(1, 'must not be empty (use null for no reply)'),
  z.maxLength(2000, 'must be at most 2000 characters'),
  z.refine(
    (text) => [...text.matchAll(PLACEHOLDER)].every((m) => (REPLY_PLACEHOLDERS as readonly string[]).includes(m[1]!)),
    `may use only the placeholders ${REPLY_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
  ),
);

/** The file: `{ "<status>": "reply" | null | { "reply": "…" | null, "note"?: "…" } }`. */
export const replyTemplatesFileSchema = z.record(
  z.string().check(z.regex(/^(\*|[a-z_]{1,40})$/, 'must be a status such as "approved", or "*"')),
  z.union([z.nullable(templateText), z.object({ reply: z.nullable(templateText), note: z.optional(templateText) })]),
);

export const replyTemplatesSchema = z.record(z.string(), z.object({ reply: z.nullable(z.string()), note: z.optional(z.string()) }));

/** The file's templates over the defaults. */
export function mergeReplyTemplates(file: z.infer<typeof replyTemplatesFileSchema>): Record<string, ReplyTemplate> {
  const merged = { ...DEFAULT_REPLIES };
  for (const [status, value] of Object.entries(file)) {
    merged[status] = value === null || typeof value === 'string' ? { reply: value } : value;
  }
  return merged;
}

export interface ReplyValues {
  refId?: string | null;
  recordId?: string | null;
  /** The date of the current status, already formatted for the customer. */
  since?: string;
}

/** The template for a status, its placeholders filled (an unknown value leaves an empty string). */
export function replyFor(templates: Record<string, ReplyTemplate>, status: string, values: ReplyValues): ReplyTemplate {
  const template = (Object.hasOwn(templates, status) ? templates[status] : templates[FALLBACK_STATUS]) ?? DEFAULT_REPLIES[FALLBACK_STATUS]!;
  const fill = (text: string) => text.replace(PLACEHOLDER, (_, name: keyof ReplyValues) => values[name] ?? '');
  return {
    reply: template.reply === null ? null : fill(template.reply),
    ...(template.note ? { note: fill(template.note) } : {}),
  };
}
