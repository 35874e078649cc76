import type { EnvironmentInfo } from '../../kyc/contract/api.ts';

/** A dashboard link's lookup: its recordId, the environment to look in, and what the page says about it. */
export interface DashboardLookup {
  id: string;
  /** As in the URL: undefined for the page's own environment when that is the unprefixed one. */
  environment: string | undefined;
  note: string;
}

/** A dashboard link as read from the box: kept as it is, and matched against the environments whenever they are known. */
export interface DashboardLinkRead {
  clientId: string;
  recordId: string;
}

/**
 * Where a dashboard link's recordId is looked up: in the environment whose client id is the link's
 * (the page's own first, should several share it), else in the page's own, and the page says which.
 * `known`: whether the server has said which environments it serves (until then none matches, and the
 * page says that it does not know yet rather than that none has the client id).
 */
export function dashboardLookup(
  link: DashboardLinkRead,
  here: { environment: string | undefined; info: EnvironmentInfo | undefined; environments: readonly EnvironmentInfo[]; known: boolean },
): DashboardLookup {
  const read = `Read a dashboard link (client id ${link.clientId}): recordId ${link.recordId}`;
  const match =
    here.info?.clientId === link.clientId ? here.info : here.environments.find((environment) => environment.clientId === link.clientId);
  if (match && match.name !== here.info?.name) {
    return { id: link.recordId, environment: match.name, note: `${read}, in the ${match.label} environment.` };
  }
  const label = here.info ? `the ${here.info.label} environment` : 'this environment';
  const note = match
    ? `${read}, in ${label}.`
    : here.known
      ? `${read}. No environment of this server has that client id, so it is looked up in ${label}.`
      : `${read}. Which environment of this server has that client id is not known yet, so it is looked up in ${label}.`;
  return { id: link.recordId, environment: here.environment, note };
}
