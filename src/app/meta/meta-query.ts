import { queryOptions } from '@tanstack/react-query';
import { apiBase, apiMetaSchema, type ApiMeta } from '../../kyc/contract/api.ts';
import { apiRequest } from '../api/api-request.ts';

export const metaQueries = {
  all: () => ['meta'] as const,
  /** `/api/meta` of an environment (undefined: the default one, as unprefixed URLs mean). */
  current: (environment?: string) =>
    queryOptions({
      queryKey: [...metaQueries.all(), environment ?? null] as const,
      queryFn: ({ signal }): Promise<ApiMeta> => apiRequest(`${apiBase(environment)}/meta`, apiMetaSchema, { signal }),
      staleTime: Infinity,
      retry: 1,
    }),
};
