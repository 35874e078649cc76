import { queryOptions } from '@tanstack/react-query';
import type { ApiMeta } from '../../kyc/contract/api.ts';
import { metaApiPath } from '../../kyc/contract/api-paths.ts';
import { apiRequest, contractSchema } from '../api/api-request.ts';

const apiMetaSchema = contractSchema('apiMetaSchema');

export const metaQueries = {
  all: () => ['meta'] as const,
  /** `/api/meta` of an environment (undefined: the default one, as unprefixed URLs mean). */
  current: (environment?: string) =>
    queryOptions({
      queryKey: [...metaQueries.all(), environment ?? null] as const,
      queryFn: ({ signal }): Promise<ApiMeta> => apiRequest(metaApiPath(environment), apiMetaSchema, { signal }),
      staleTime: Infinity,
      retry: 1,
    }),
};
