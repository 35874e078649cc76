import { z } from 'zod';
import { replyTemplatesFileSchema } from '../../kyc/contract/replies.ts';
import { ENVIRONMENT_TONES } from '../../kyc/contract/api.ts';
import { DEFAULT_CONNECTION_LIMITS, DEFAULT_BODY_TIMEOUT_MS } from '../http/connection-guard.ts';
import { baseUrl, dashboardUrl, environmentLabel, environmentName, headerSafe, supportFieldList } from './config-fields.ts';

/**
 * CONFIG_FILE: what describes the service, checked once at start. Its JSON Schema (docs/config.schema.json)
 * is generated from this one (json-schema.ts), so the two cannot disagree.
 */

/** The name of an environment variable holding a secret: never the secret itself. */
const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be the name of an environment variable, such as KYC_PROD_KEY');
const filePath = z.string().min(1, 'must not be empty');

/**
 * A key given inline is refused with how to give it: the file is read by people and copied around, a
 * key belongs in a variable or a file of its own (a Docker or Kubernetes secret).
 */
const inlineRefused = (field: string) =>
  z
    .never({ error: `is not read: the file holds no keys. Name the variable that holds it (${field}Env) or a file with it (${field}File)` })
    .optional()
    .meta({ description: `Refused: give ${field}Env or ${field}File instead.` });

const strict = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}` : undefined),
  });

export const summaryFields = z
  .array(headerSafe.min(1, 'must not be empty'))
  .min(1, 'must name at least one custom field, such as ["riskLevel", "screeningCase"]')
  .meta({ description: 'Custom fields in the decision summary, matched ignoring case, spaces, "-" and "_".' });

// Support users' "Copy reply" texts per status, over the built-in ones: { "<status>": "text" | null | { reply, note } }.
const replyTemplates = replyTemplatesFileSchema;

export const environmentEntry = strict({
  name: environmentName.meta({ description: 'As it appears in URLs (/e/<name>/); the first environment is the default.' }),
  label: environmentLabel.meta({ description: 'What the header badge says, e.g. "Production".' }),
  tone: z.enum(ENVIRONMENT_TONES).optional().meta({ description: 'The badge colour: danger (production), warning (staging), neutral.' }),
  baseUrl,
  clientId: headerSafe.min(1, 'must not be empty'),
  apiKeyEnv: variableName.optional().meta({ description: 'The environment variable holding the full API key.' }),
  apiKeyFile: filePath.optional().meta({ description: 'A file holding the full API key (a Docker or Kubernetes secret).' }),
  statusApiKeyEnv: variableName
    .optional()
    .meta({ description: 'The variable holding a status-level key for support users and the applicants queue.' }),
  statusApiKeyFile: filePath
    .optional()
    .meta({ description: 'A file holding a status-level key for support users and the applicants queue.' }),
  webhookSecretEnv: variableName
    .optional()
    .meta({ description: "The variable holding the secret the service's webhooks are signed with." }),
  webhookSecretFile: filePath.optional().meta({ description: "A file holding the secret the service's webhooks are signed with." }),
  apiKey: inlineRefused('apiKey'),
  statusApiKey: inlineRefused('statusApiKey'),
  allowHttp: z.boolean().optional().meta({ description: 'Allow http:// to another machine (the key would travel unencrypted).' }),
  dashboardUrl: dashboardUrl.optional(),
  summaryFields: summaryFields.optional(),
  replyTemplates: z.optional(replyTemplates),
  supportFields: supportFieldList.optional().meta({
    description:
      'Custom fields support users may see beside the status, e.g. ["rejectionReason", "resubmitHint"]: their lookups then read the full record with the full key and keep only these.',
  }),
  archiveOnExtract: z
    .enum(['refuse', 'accept'], { error: 'must be "refuse" (the default) or "accept" (look anyway, deleting what is looked at)' })
    .optional()
    .meta({ description: 'With a key that archives after extract: refuse full lookups (default) or accept the loss.' }),
  queueIndexMax: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1000, 'must be at least 1000')
    .max(10_000_000, 'must be at most 10000000')
    .optional()
    .meta({
      description:
        "The queue index's room in candidates (every status), and 512 bytes each on average; past it the oldest decisions are evicted first (600000).",
    }),
  queueSlaHours: z
    .number({ error: 'must be a number of hours' })
    .min(0, 'must be at least 0')
    .max(8760, 'must be at most 8760 (a year)')
    .optional()
    .meta({ description: 'Queue rows waiting longer than this many hours are flagged; 0 turns the flag off (48).' }),
});
export type EnvironmentEntry = z.infer<typeof environmentEntry>;

const whole = (min: number, max: number) =>
  z
    .number({ error: (issue) => (issue.code === 'invalid_type' ? 'must be a whole number' : undefined) })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const sessions = {
  sessionMaxAgeMinutes: whole(1, 7 * 24 * 60)
    .optional()
    .meta({ description: 'A session ends this long after sign-in (480).' }),
  sessionIdleMinutes: whole(1, 24 * 60)
    .optional()
    .meta({ description: 'A session ends after this long idle (60).' }),
};
const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name, such as X-Forwarded-User');
const webUrl = z.url({ protocol: /^https?$/, error: (issue) => (issue.input === undefined ? 'is missing' : 'must be an https:// URL') });
const values = z.array(z.string().min(1)).min(1, 'must list at least one value');
const visible = (what: string) => z.string().regex(/^[\x21-\x7e]+$/, `must be the ${what} as issued: no spaces or line breaks`);

export const signInSchema = z.discriminatedUnion(
  'mode',
  [
    strict({
      mode: z.literal('local'),
      allowUnauthenticated: z
        .boolean()
        .optional()
        .meta({ description: 'Allow no sign-in on a non-loopback HOST, when something else guards access.' }),
    }),
    strict({ mode: z.literal('users'), usersFile: filePath.meta({ description: 'The file written by npm run user:add.' }), ...sessions }),
    strict({
      mode: z.literal('proxy'),
      userHeader: headerName,
      roleHeader: headerName,
      trustedProxies: z
        .array(z.string())
        .min(1, "must list the proxy's addresses or CIDRs")
        .meta({ description: "The proxy's addresses or CIDRs." }),
    }),
    strict({
      mode: z.literal('oidc'),
      issuer: webUrl,
      clientId: visible('client id'),
      clientSecretEnv: variableName.optional(),
      clientSecretFile: filePath.optional(),
      clientSecret: inlineRefused('clientSecret'),
      redirectUrl: webUrl.meta({ description: "This server's public address + /api/oidc/callback." }),
      roleClaim: z
        .string()
        .regex(/^[\x21-\x7e]{1,200}$/, 'must be a claim name, such as groups')
        .optional(),
      complianceValues: values.optional(),
      supportValues: values.optional(),
      leadValues: values.optional().meta({ description: 'Values that make a user a lead: compliance and the audit page.' }),
      scopes: z.array(visible('scope')).optional().meta({ description: 'Default ["openid", "email", "profile"].' }),
      providerName: z.string().max(60, 'must be at most 60 characters').optional(),
      ...sessions,
    }),
  ],
  { error: 'must have a mode: "local", "users", "proxy" or "oidc"' },
);
export type SignInEntry = z.infer<typeof signInSchema>;

/** A limit of its own default: the one place that default is written (the server and the docs' JSON Schema read it here). */
const limit = (max: number, fallback: number, description: string) => whole(0, max).default(fallback).meta({ description });
const count = (max: number, description: string) => whole(0, max).optional().meta({ description });

/**
 * CONFIG_FILE's limits, each with its default: what the API handler is set with (settings.ts) is this
 * object as parsed, so a limit added here reaches every lookup step with no other change. The two
 * without a default of their own depend on something else (the environments; the open-file limit).
 */
export const limitsSchema = strict({
  lookupsPerMinute: limit(1_000_000, 60, 'Lookups per minute per user; 0 turns the limit off (60).'),
  batchIdsPerMinute: limit(1_000_000, 600, 'Ids per minute per user in batch lookups; 0 turns it off (600).'),
  upstreamInFlightPerUser: limit(1000, 4, "Each user's requests to the service under way at once; 0 turns it off (4)."),
  upstreamTimeoutMs: whole(100, 600_000).default(15_000).meta({ description: 'How long to wait for the service (15000).' }),
  upstreamAnswerTimeoutMs: whole(100, 3_600_000)
    .default(120_000)
    .meta({ description: "The service's whole answer, its body included, must arrive within this; else it is cut (120000)." }),
  webhookDeliveriesPerMinute: limit(1_000_000, 6000, 'Webhook deliveries per minute per sending address; 0 turns it off (6000).'),
  queueIndexLookupsPerSecond: count(
    1000,
    "Requests per second of each environment's queue crawler to the service, list pages and status-level lookups together; 0: no crawler (5; 100 for the embedded sandbox).",
  ),
  queueViewsPerMinute: limit(
    1_000_000,
    300,
    'Queue views per minute per user, read from the index, a limit of their own; 0 turns it off (300).',
  ),
  auditSearchesPerMinute: limit(
    1_000_000,
    120,
    'Audit page searches and exports per minute per lead, a limit of their own (each writes an audit line); 0 turns it off (120).',
  ),
  activityPerMinute: limit(
    1_000_000,
    120,
    "A candidate's Activity reads per minute per user, a limit of their own (each reads the audit trail); 0 turns it off (120).",
  ),
  exportAfterLookupMinutes: whole(1, 7 * 24 * 60)
    .default(720)
    .meta({
      description:
        "A copy of a candidate is accepted this long after the user's lookup of it; later, 409 not_looked_up (a print is recorded, marked notLookedUp) (720).",
    }),
  previewLookupsAtOnce: limit(
    64,
    4,
    'Lookups whose large pictures are being reduced to previews at once; more wait their turn; 0: no previews (4).',
  ),
  maxResponseBytes: whole(1024, 2 ** 31)
    .default(64 * 1024 * 1024)
    .meta({ description: 'Largest answer accepted from the service (64 MiB).' }),
  headersTimeoutMs: whole(100, 600_000)
    .default(DEFAULT_CONNECTION_LIMITS.headersTimeoutMs)
    .meta({ description: "A request's headers must all arrive within this; else 408 and the connection is closed (10000)." }),
  requestTimeoutMs: whole(100, 3_600_000)
    .default(DEFAULT_CONNECTION_LIMITS.requestTimeoutMs)
    .meta({ description: 'A whole request, its body included, must arrive within this; at least headersTimeoutMs (30000).' }),
  webhookBodyTimeoutMs: whole(100, 600_000)
    .default(DEFAULT_BODY_TIMEOUT_MS)
    .meta({ description: "A webhook delivery's body must arrive within this; else 408 and the connection is closed (5000)." }),
  apiBodyTimeoutMs: whole(100, 600_000).default(DEFAULT_BODY_TIMEOUT_MS).meta({
    description:
      "An API request's JSON body (a batch, an export, a sign-in…) must arrive within this once read; else 408 and the connection is closed (5000).",
  }),
  openRequestsPerUser: limit(
    100_000,
    64,
    'Requests one signed-in user has open at once on this instance; more are answered 429 and their connection closed; 0 turns it off (64).',
  ),
  connectionsPerAddress: limit(
    1_000_000,
    DEFAULT_CONNECTION_LIMITS.perAddress,
    'Connections on which nobody has signed in yet, per client address (an IPv6 /64); more are closed at once; 0 turns it off (256).',
  ),
  anonymousConnections: count(
    1_000_000,
    "Connections on which nobody has signed in yet, from all addresses; past it the oldest is closed for the new one; 0 turns it off (half the process's open-file limit, at most 10000).",
  ),
})
  .refine((limits) => limits.requestTimeoutMs >= limits.headersTimeoutMs, {
    error: 'requestTimeoutMs must be at least headersTimeoutMs: the headers are part of the request',
    path: ['requestTimeoutMs'],
  })
  .refine((limits) => limits.upstreamAnswerTimeoutMs >= limits.upstreamTimeoutMs, {
    error: "upstreamAnswerTimeoutMs must be at least upstreamTimeoutMs: the service's answer starts with its status line",
    path: ['upstreamAnswerTimeoutMs'],
  });
/** The limits as parsed: every one with a default resolved. */
export type Limits = z.output<typeof limitsSchema>;

/** The shapes of the list operation's records the sandbox can answer in (sandbox/list-shapes.ts says what each is). */
export const LIST_SHAPES = ['older', 'early', 'current', 'recordId'] as const;
export type ListShape = (typeof LIST_SHAPES)[number];

export function isListShape(value: string): value is ListShape {
  return (LIST_SHAPES as readonly string[]).includes(value);
}

export const configFileSchema = strict({
  $schema: z.string().optional(),
  environments: z
    .array(environmentEntry, { error: 'must be an array of environments' })
    .min(1, 'must list at least one environment')
    .max(20, 'must list at most 20 environments')
    .optional(),
  signIn: signInSchema.optional(),
  display: strict({
    privacyMask: z
      .enum(['on', 'off'], { error: 'must be "on" or "off"' })
      .optional()
      .meta({ description: 'Pages open with the privacy mask on or off (off).' }),
    summaryFields: summaryFields.optional(),
    replyTemplates: z.optional(replyTemplates),
  }).optional(),
  // Unset: every limit's default (prefault: the empty object is parsed, so that each default is applied).
  limits: limitsSchema.prefault({}),
  audit: strict({
    retentionDays: whole(1, 36_500)
      .optional()
      .meta({ description: 'Days the audit table (DATABASE_URL) keeps a line; the audit files are kept by the operator (365).' }),
  })
    .optional()
    .meta({ description: 'The audit trail as the app reads it (issue 34).' }),
  sandbox: strict({
    data: filePath.optional().meta({ description: 'A JSON file of your own sandbox candidates.' }),
    largeImages: z.boolean().optional().meta({ description: 'Phone-camera sized pictures and more candidates, for benchmarks.' }),
    hostile: z.boolean().optional().meta({ description: 'Tests only: a candidate made of hostile content.' }),
    testControls: z
      .boolean()
      .optional()
      .meta({ description: 'Tests only: POST /_test/status, /_test/reset, /_test/outage and /_test/webhook.' }),
    listShape: z.enum(LIST_SHAPES).optional().meta({
      description:
        "The shape of the list operation's records: the older notes', early (no isArchived), the current documentation's, or that with recordId (older).",
    }),
  })
    .optional()
    .meta({ description: 'The embedded sandbox, when no environment is configured.' }),
});
/** CONFIG_FILE as a person writes it (tests build these). */
export type ConfigFile = z.input<typeof configFileSchema>;
/** CONFIG_FILE as checked: every default applied. */
export type CheckedConfigFile = z.output<typeof configFileSchema>;
