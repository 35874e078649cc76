import { useQuery } from '@tanstack/react-query';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { candidatePath, environmentPath } from '../routes.ts';
import { metaQueries } from './meta-query.ts';

/**
 * A candidate's page in an environment named as the server names it (an audit line's, a live event's, a
 * recent lookup's): the server's default environment by the unprefixed address (`/candidates/…`), another
 * under `/e/<name>/…`. Every list that links candidates builds its links here, so that one candidate has one
 * address wherever it is linked from (the recent lookups linked the default one as `/e/<name>/…`).
 * Until the default's name is known (`undefined`), every environment is linked by its name: a correct
 * address, if not the usual one.
 */
export function candidateLink(kind: LookupKind, id: string, environment: string, defaultEnvironment: string | undefined): string {
  return environmentPath(environment === defaultEnvironment ? undefined : environment, candidatePath(kind, id));
}

/** The name of the environment the unprefixed address means: the server's default (the shell asked for it already). */
export function useDefaultEnvironment(): string | undefined {
  return useQuery(metaQueries.current()).data?.environment.name;
}
