import {
  type ApiMeta,
  candidateApiPath,
  ENVIRONMENT_ROUTES,
  type EnvironmentInfo,
  type SampleCandidate,
  SESSION_API_PATH,
} from '../../kyc/contract/api.ts';
import { LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';
import type { ReplyTemplate } from '../../kyc/contract/replies.ts';
import { type EnvironmentRoute, environmentPatterns, type RefusedAs } from './api-environments.ts';
import { listLine, lookupLine, requestLine } from '../audit/audit-lines.ts';
import { type AccessControl, mayUse } from '../auth/access-control.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { Identity } from '../http/identity.ts';
import { sendFailure, sendJson } from '../http/http-reply.ts';
import { any, type ApiCall, open, type Route } from '../http/routes.ts';
import { listApplicants } from '../lookup/applicants.ts';
import { type BatchDeps, batchRoute } from '../lookup/batch.ts';
import { exportRoute } from '../lookup/export-route.ts';
import { lookup } from '../lookup/lookup.ts';
import { readId } from '../lookup/lookup-steps.ts';
import type { ServedEnvironment } from '../lookup/served-environment.ts';
import { liveHeldOf } from '../live/live-held.ts';
import { type Logger, requestLog } from '../log/log.ts';
import type { Metrics } from '../ops/metrics.ts';
import { type ActivityDeps, activityRoute } from '../trail/audit-routes.ts';

/**
 * The API's route table: which routes exist, with their methods and what answers them. The routes of
 * every environment are bound to the environments served once, in api-environments.ts; each gets the
 * request's environment, its dependencies wired at start (serve-environments.ts).
 */
export interface RouteSettings {
  access: AccessControl;
  metrics: Metrics;
  batch: BatchDeps;
  replyTemplates: Record<string, ReplyTemplate>;
  display: Pick<ApiMeta, 'summaryFields' | 'privacyMaskDefault'> | undefined;
  /** The audit trail as a candidate's Activity reads it (issue 34): without it, no Activity route. */
  trail?: ActivityDeps;
}

/** The routes outside any environment: the session's, and the sign-in mode's own (OpenID Connect). */
export function openRoutes({
  access,
  metrics,
  onSignOut,
}: Pick<RouteSettings, 'access' | 'metrics'> & { onSignOut?: () => void }): Route[] {
  return [open(SESSION_API_PATH, (call) => sessionRoute(access, metrics, call, onSignOut)), ...(access.routes ?? [])];
}

/** A page of the applicants list, a batch or an export refused for its environment: audited as what it was. */
const REFUSED_AS: Record<'applicants' | 'batch' | 'export', RefusedAs> = {
  applicants: { what: 'request', limit: 'applicants', line: (env, call) => listLine(env, call, undefined) },
  batch: { what: 'batch', limit: 'batch', line: (env, call) => requestLine(env, call, 'batch') },
  export: { what: 'export', limit: 'export', line: (env, call) => requestLine(env, call, 'export') },
};

/** The routes of every environment, in the order they are matched. */
export function environmentTable(settings: Pick<RouteSettings, 'batch' | 'replyTemplates' | 'display' | 'trail'>): EnvironmentRoute[] {
  const { trail } = settings;
  return [
    {
      pattern: ENVIRONMENT_ROUTES.meta,
      method: 'GET',
      handle: async (current, call, served) =>
        sendJson(
          call.res,
          200,
          JSON.stringify(await metaFor(served, current, call.identity, settings.replyTemplates, settings.display, requestLog(call.res))),
        ),
    },
    ...LOOKUP_KINDS.flatMap((kind) => [lookupRoute(kind, false), lookupRoute(kind, true)]),
    {
      pattern: ENVIRONMENT_ROUTES.applicants,
      method: 'GET',
      refusedAs: REFUSED_AS.applicants,
      handle: (current, call) => listApplicants({ ...current.deps, queue: current.queue }, call),
    },
    {
      pattern: ENVIRONMENT_ROUTES.batch,
      method: 'any',
      refusedAs: REFUSED_AS.batch,
      handle: (current, call) => batchRoute(current.deps, settings.batch, call),
    },
    {
      pattern: ENVIRONMENT_ROUTES.export,
      method: 'any',
      refusedAs: REFUSED_AS.export,
      // A print's paper exists whatever the answer: while the store is down it is written under the user this instance knew.
      remembered: true,
      handle: (current, call) => exportRoute(current.deps, call),
    },
    ...(trail ? [activityEntry(trail)] : []),
  ];
}

/**
 * A candidate's Activity in the request's environment. Not audited (reading it is part of the candidate
 * page, whose lookup has its line), so an environment this user may not use is refused here, unaudited.
 */
function activityEntry(trail: ActivityDeps): EnvironmentRoute {
  return {
    pattern: ENVIRONMENT_ROUTES.activity,
    method: 'any',
    handle: (current, call) => {
      const { name } = current.environment.info;
      if (!mayUse(call.identity, name))
        throw new ApiFailure('environment_forbidden', `Your account may not use the environment "${name}".`);
      return activityRoute(trail, name, call);
    },
  };
}

/** After every route: a lookup of another kind, in any environment, is no route at all. */
export function lastRoutes(): Route[] {
  return environmentPatterns(`${ENVIRONMENT_ROUTES.candidates}/:rest*`).map((pattern) =>
    any(pattern, () => {
      const [refId, recordId] = LOOKUP_KINDS.map((kind) => candidateApiPath(kind, '<id>'));
      throw new ApiFailure('no_such_route', `Look candidates up at ${refId} or ${recordId}.`);
    }),
  );
}

/** One lookup in the request's environment; refused for its environment, it is audited as the lookup it was. */
function lookupRoute(kind: LookupKind, statusOnly: boolean): EnvironmentRoute {
  return {
    pattern: `${statusOnly ? ENVIRONMENT_ROUTES.status : ENVIRONMENT_ROUTES.candidates}/${kind}/:id*`,
    method: 'GET',
    refusedAs: { what: 'lookup', limit: 'lookup', line: (env, call) => lookupLine(env, call, kind, readId(call.params.id!).auditId) },
    handle: (current, call) => lookup(current.deps, { ...call, kind, encodedId: call.params.id!, statusOnly }),
  };
}

/** After a sign-out (`DELETE`), `onSignOut`: the live update streams of the session that ended close at once. */
function sessionRoute(access: AccessControl, metrics: Metrics, { req, res }: ApiCall, onSignOut?: () => void): void | Promise<void> {
  return access.handleSession(
    req,
    (status, body, headers) => {
      sendJson(res, status, JSON.stringify(body), headers);
      if (req.method === 'DELETE') onSignOut?.();
    },
    (failure) => {
      // Counted from the answer, whichever sign-in mode and store decided it.
      if (failure.code === 'sign_in_failed') metrics.signInFailures.inc();
      if (failure.code === 'too_many_sign_in_attempts') metrics.signInLocked.inc();
      sendFailure(res, failure);
    },
    res,
  );
}

/**
 * `/api/meta`: the environment asked for, whether this user may use it, and the ones they may. Of an
 * environment this user may not use, only its name (in the URL already): not its label, client id,
 * dashboard or key state.
 */
export async function metaFor(
  served: readonly ServedEnvironment[],
  current: ServedEnvironment,
  identity: Identity,
  replyTemplates: Record<string, ReplyTemplate>,
  display: Pick<ApiMeta, 'summaryFields' | 'privacyMaskDefault'> | undefined,
  log: Logger,
): Promise<ApiMeta> {
  const allowed = mayUse(identity, current.environment.info.name);
  const { info, samples } = current.environment;
  const archivingKey = allowed ? await current.deps.archiving.state() : undefined;
  // Each environment this user may use, with whether its live updates are held (live-held.ts), read once.
  const usable = await Promise.all(served.filter((s) => mayUse(identity, s.environment.info.name)).map((s) => withLive(s, log)));
  const environment = usable.find((e) => e.name === info.name);
  return {
    upstream: info.upstream,
    ...(allowed && samples ? { samples: identity.role === 'support' ? samples.map(withoutName) : samples } : {}),
    environment: allowed && environment ? environment : { name: info.name, label: info.name, upstream: info.upstream, live: false },
    allowed,
    environments: usable,
    replyTemplates: current.environment.replyTemplates ?? replyTemplates,
    ...(archivingKey
      ? { archivingKey: { ...archivingKey, ...(current.deps.hasStatusKey ? {} : { supportUsesFullKey: true as const }) } }
      : {}),
    ...display,
    ...(current.environment.summaryFields ? { summaryFields: current.environment.summaryFields } : {}),
    ...(allowed && current.environment.supportFields ? { supportFields: [...current.environment.supportFields] } : {}),
    live: allowed && Boolean(current.environment.webhookSecret),
    ...(environment?.liveHeld === undefined ? {} : { liveHeld: environment.liveHeld }),
  };
}

/**
 * An environment as the browser knows it, with whether its pages update live (it has a webhook receiver),
 * and, when they would but deliveries are not checked for now, why (`liveHeld`).
 */
async function withLive(served: ServedEnvironment, log: Logger): Promise<EnvironmentInfo> {
  const liveHeld = await liveHeldOf(served, log);
  return { ...served.environment.info, live: Boolean(served.environment.webhookSecret), ...(liveHeld === undefined ? {} : { liveHeld }) };
}

/** Support users see status level only, so not a sample candidate's name either. */
function withoutName({ name: _name, ...sample }: SampleCandidate): SampleCandidate {
  return sample;
}
