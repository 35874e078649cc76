import { describe, expect, it } from 'vitest';
import { candidateApiPath, metaApiPath } from '../../src/kyc/contract/api-paths.ts';
import { activityApiPath, batchApiPath, exportApiPath, statusApiPath } from '../../src/kyc/contract/environment-paths.ts';
import { applicantsApiPath } from '../../src/kyc/contract/applicants.ts';
import { LOOKUP_KINDS } from '../../src/kyc/contract/lookup.ts';
import { environmentTable, lastRoutes } from '../../src/server/composition/api-routes.ts';
import { environmentRoutes } from '../../src/server/composition/api-environments.ts';
import { findRoute, routeLabel } from '../../src/server/http/routes.ts';
import type { ActivityDeps } from '../../src/server/trail/audit-routes.ts';

describe("the contract's paths and the server's route table", () => {
  // Only the table's patterns are read here: no route is called, so its settings need not work.
  const table = environmentTable({ batch: {} as never, replyTemplates: {}, display: undefined, trail: {} as ActivityDeps });
  const routes = [...environmentRoutes([], table), ...lastRoutes()];
  const labelOf = (path: string) => {
    const found = findRoute(routes, path.split('?')[0]!);
    return found && routeLabel(found.route);
  };

  it.each([undefined, 'staging', 'a b/c'])('every path the app builds is one the table answers (environment %s)', (environment) => {
    const prefix = environment === undefined ? '/api' : '/api/e/:env';
    const built: [string, string][] = [
      [metaApiPath(environment), `${prefix}/meta`],
      [batchApiPath(environment), `${prefix}/batch`],
      [exportApiPath(environment), `${prefix}/export`],
      [activityApiPath(environment), `${prefix}/activity`],
      [applicantsApiPath({ status: undefined, skip: 0, limit: 20 }, environment), `${prefix}/applicants`],
      ...LOOKUP_KINDS.flatMap((kind): [string, string][] => [
        [candidateApiPath(kind, 'a%2Fb', environment), `${prefix}/candidates/${kind}/:id`],
        [statusApiPath(kind, 'a%2Fb', environment), `${prefix}/status/${kind}/:id`],
      ]),
    ];
    for (const [path, label] of built) expect(labelOf(path), path).toBe(label);
  });
});
