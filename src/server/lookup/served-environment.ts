import type { EnvironmentInfo, SampleCandidate } from '../../kyc/contract/api.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { ReplyTemplate } from '../../kyc/contract/replies.ts';
import type { UpstreamTarget } from '../upstream/upstream-client.ts';
import type { ApplicantsQueue } from './applicants.ts';
import type { LookupDeps } from './lookup-steps.ts';

/** An environment as the API handler serves it: what the browser may know, and where lookups go. */
export interface ApiEnvironment {
  info: EnvironmentInfo;
  target: UpstreamTarget;
  /** The sandbox's sample candidates, offered as examples. */
  samples?: SampleCandidate[];
  /** Its own decision fields, reply texts and archive-after-extract policy (unset: the handler's). */
  summaryFields?: string[];
  replyTemplates?: Record<string, ReplyTemplate>;
  archiveOnExtract?: 'refuse' | 'accept';
  /** The custom fields its support users may see beside the status (none: status level only). */
  supportFields?: readonly string[];
  /** The embedded sandbox's decision, for the simulate buttons (sandbox mode only). */
  simulate?: (kind: LookupKind, id: string, status: string) => boolean;
  /** Its queue: the index's room in candidates (its bound in bytes follows), and its SLA in hours (unset: the defaults). */
  queueIndexMax?: number;
  queueSlaHours?: number;
  /** The shared secret the service signs its webhooks with (issue 22); without it, no receiver. Server memory only. */
  webhookSecret?: string;
}

/** An environment ready to serve: its lookups' dependencies built once. */
export interface ServedEnvironment {
  environment: ApiEnvironment;
  deps: LookupDeps;
  /** Its queue: the index, its crawler and settings. */
  queue: ApplicantsQueue;
}
