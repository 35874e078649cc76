import { z } from './zod.ts';
import { LOOKUP_KINDS } from './lookup.ts';
import { replyTemplatesSchema, TEMPLATE_KEY } from './replies.ts';
import { API_ERROR_CODES, API_ERROR_REASONS } from './api-errors.ts';
import { ROLES } from './roles.ts';
import { FILE_TYPE_LABELS } from './picture-type.ts';

/** The contract between the browser and this project's proxy (`/api/*`). */

/** Who may see what (roles.ts): support users the status level, compliance users the full record, leads that and the audit page. */
export { ROLES, type Role, readsAuditTrail, readsFullRecord } from './roles.ts';

export const AUTH_MODES = ['local', 'users', 'proxy', 'oidc'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** `GET /api/session`: how this server signs people in, and who is signed in. */
export const sessionInfoSchema = z.object({
  mode: z.enum(AUTH_MODES),
  user: z.optional(z.string()),
  role: z.optional(z.enum(ROLES)),
  /** OpenID Connect: the provider's name for the "Sign in with …" button. */
  provider: z.optional(z.string()),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** `POST /api/oidc/start`: where to send the browser to sign in at the provider. */
export const oidcStartSchema = z.object({ authorizationUrl: z.string() });

/** The codes, each with its one HTTP status: api-errors.ts. */
export { API_ERROR_CODES, API_ERROR_REASONS, type ApiErrorCode, type ApiErrorReason } from './api-errors.ts';
/** The paths, the app's header and the sign-in refusals: api-paths.ts, which the browser's first load imports without zod. */
export {
  API_PREFIX,
  APP_REQUEST_HEADER,
  apiBase,
  candidateApiPath,
  decodeEnvironmentName,
  metaApiPath,
  OIDC_API_PREFIX,
  OIDC_CALLBACK_API_PATH,
  OIDC_START_API_PATH,
  SESSION_API_PATH,
  SANDBOX_DASHBOARD_PATH,
  SANDBOX_DASHBOARD_URL,
  SIGN_IN_REFUSALS,
  SIGN_IN_REFUSED_PATH,
  type SignInRefusal,
} from './api-paths.ts';
export {
  activityApiPath,
  applicantsApiBase,
  batchApiPath,
  ENVIRONMENT_ROUTES,
  exportApiPath,
  statusApiPath,
} from './environment-paths.ts';

export const apiErrorBodySchema = z.object({
  status: z.literal('error'),
  error: z.object({
    code: z.enum(API_ERROR_CODES),
    message: z.string(),
    /** Seconds to wait, as the answer's Retry-After says: for the rate limits, and what is paused for a while. */
    retryAfterSeconds: z.optional(z.number()),
    /** The service's own HTTP status, for upstream_error. */
    upstreamStatus: z.optional(z.number()),
    /** For other_candidate: the id (of the kind asked) the answer's record gave, an id and never its data. */
    answeredId: z.optional(z.string()),
    /** For a batch refused for its size (bad_request): the most ids this server looks up in a minute's batches. */
    idsAtMost: z.optional(z.number()),
    /** Which refusal of its code it is, where a page treats them apart (`exports_under_way`, a rate_limited export): api-errors.ts. */
    reason: z.optional(z.enum(API_ERROR_REASONS)),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export const sampleCandidateSchema = z.object({
  kind: z.enum(LOOKUP_KINDS),
  id: z.string(),
  status: z.string(),
  name: z.optional(z.string()),
  summary: z.string(),
});
export type SampleCandidate = z.infer<typeof sampleCandidateSchema>;

/**
 * Custom fields that explain a decision, shown in the candidate page's summary (summaryFields in CONFIG_FILE).
 * Names match without regard to case, spaces, `-` or `_`: `riskLevel` also finds `risk_level`.
 */
export const DEFAULT_SUMMARY_FIELDS = [
  'riskLevel',
  'riskScore',
  'rejectionReason',
  'rejectionNote',
  'reviewReason',
  'reviewNote',
  'screeningCase',
] as const;

/** The header badge's colour for an environment: `danger` for production, `warning` for staging. */
export const ENVIRONMENT_TONES = ['danger', 'warning', 'neutral'] as const;

/** An environment as the browser may know it: never a key or the service's address. */
export const environmentInfoSchema = z.object({
  name: z.string(),
  label: z.string(),
  tone: z.optional(z.enum(ENVIRONMENT_TONES)),
  /** The client id of a real service (none for the embedded sandbox). */
  clientId: z.optional(z.string()),
  upstream: z.enum(['sandbox', 'remote']),
  /**
   * The service's console for a candidate, with `{recordId}` or `{refId}`: the environment's own, else a
   * Blockpass service's console; in sandbox mode the app's own page about it (SANDBOX_DASHBOARD_URL, a path).
   */
  dashboardUrl: z.optional(z.string()),
  /** The environment has a webhook receiver, so its pages update live (false: "live updates off"). */
  live: z.optional(z.boolean()),
  /**
   * Live, but its webhook deliveries are not checked for now, so no page is told of them ("Live held"): why,
   * in the words the applicants list's tab gives it (without a status-level key: until a lookup has shown
   * the full key keeps identity data, never while it is found to archive after extract).
   */
  liveHeld: z.optional(z.string()),
});
export type EnvironmentInfo = z.infer<typeof environmentInfoSchema>;
export type EnvironmentTone = (typeof ENVIRONMENT_TONES)[number];

/** This server's key was seen to archive identity data after each full lookup (see archiving.ts). */
export const archivingKeySchema = z.object({
  /** When a full lookup first showed it (ISO 8601). */
  detectedAt: z.string(),
  /** archiveOnExtract "accept" in CONFIG_FILE: full lookups go on regardless; otherwise they are refused. */
  accepted: z.boolean(),
  /**
   * No status-level key is configured: support users and batches look with this key too, so they are
   * refused as well (or, accepted, delete what they look at). They need KYC_API_KEY_STATUS.
   */
  supportUsesFullKey: z.optional(z.literal(true)),
});
export type ArchivingKey = z.infer<typeof archivingKeySchema>;

/**
 * `GET /api/meta` (or `/api/e/<name>/meta`): the environment of that URL, whether this user may use it,
 * the environments they may use (the first one listed by the server is the default), and texts the
 * browser needs.
 */
export const apiMetaSchema = z.object({
  upstream: z.enum(['sandbox', 'remote']),
  samples: z.optional(z.array(sampleCandidateSchema)),
  environment: environmentInfoSchema,
  /** False when this user's account is limited to other environments. */
  allowed: z.boolean(),
  environments: z.array(environmentInfoSchema),
  replyTemplates: replyTemplatesSchema,
  /** Once this environment's key was seen to archive after extract. */
  archivingKey: z.optional(archivingKeySchema),
  summaryFields: z.optional(z.array(z.string())),
  /**
   * The custom fields support users see beside the status (supportFields in CONFIG_FILE): their lookups
   * answer these too, unless the key archives after extract (`archivingKey`), when they are not fetched.
   */
  supportFields: z.optional(z.array(z.string())),
  /** PRIVACY_MASK_DEFAULT=on: pages open with pictures blurred and contact details masked. */
  privacyMaskDefault: z.optional(z.boolean()),
  /** This environment has a webhook secret, so the service's webhooks update its pages (issue 22); false: "live updates off". */
  live: z.boolean(),
  /** The environment's `liveHeld`, beside `live`: its live updates are held, and why. */
  liveHeld: z.optional(z.string()),
});
export type ApiMeta = z.infer<typeof apiMetaSchema>;

/** `POST /api/export`: a candidate's data carried out of the page, for the audit log. */
export const EXPORT_KINDS = ['summary', 'reply', 'print', 'certificate', 'file'] as const;
/**
 * A certificate's slug as an export line names it (`onfido-service-cert`). The service chooses slugs, so
 * one of another form is not sent (the line then says only "certificate") rather than written as given.
 */
export const CERTIFICATE_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/**
 * A picture attribute's name as a saved file's export line names it (`proof_of_address`). The service
 * chooses names, so one of another form is not sent (the line then names only the file's type).
 */
export const ATTRIBUTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const exportRequestSchema = z.object({
  what: z.enum(EXPORT_KINDS),
  kind: z.enum(LOOKUP_KINDS),
  id: z.string().check(z.minLength(1), z.maxLength(1024)),
  /** A reply's template: the status it is for (`blocked`, or another of its templates: `blocked:neutral`), or `*` (the fallback). Never the reply's text. */
  template: z.optional(z.string().check(z.regex(TEMPLATE_KEY))),
  /** A print made with the privacy mask on: the paper says so, and so does the audit line. */
  masked: z.optional(z.boolean()),
  /** The certificate copied (`what: "certificate"`): its slug, never its text. */
  slug: z.optional(z.string().check(z.regex(CERTIFICATE_SLUG))),
  /** The document file saved (`what: "file"`): the attribute it is, never its bytes. */
  attribute: z.optional(z.string().check(z.regex(ATTRIBUTE_NAME))),
  /** The document file saved: its type as sniffed from its bytes (`PDF`, `SVG`, `unknown`). */
  fileType: z.optional(z.enum(FILE_TYPE_LABELS)),
});
export type ExportRequest = z.infer<typeof exportRequestSchema>;

/**
 * `POST /api/export`'s answer. A print that a copy's checks would refuse is recorded all the same (its paper
 * exists): the answer says how its line is marked, `notLookedUp` (not looked up lately by this user) or
 * `openedUnknown` (the shared store could not say), so that the page can tell the user.
 */
export const exportAnswerSchema = z.object({
  notLookedUp: z.optional(z.boolean()),
  openedUnknown: z.optional(z.boolean()),
});
export type ExportAnswer = z.infer<typeof exportAnswerSchema>;
