import { queryOptions } from '@tanstack/react-query';
import { apiBase, apiMetaSchema, type ApiMeta } from '../../kyc/contract/api.ts';
import { apiFetch } from '../api-fetch.ts';

export const metaQueries = {
  all: () => ['meta'] as const,
  /** `/api/meta` of an environment (undefined: the default one, as unprefixed URLs mean). */
  current: (environment?: string) =>
    queryOptions({
      queryKey: [...metaQueries.all(), environment ?? null] as const,
      queryFn: async ({ signal }): Promise<ApiMeta> => {
        const path = `${apiBase(environment)}/meta`;
        const response = await apiFetch(path, { signal, headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`${path} answered HTTP ${response.status}`);
        return apiMetaSchema.parse(await response.json());
      },
      staleTime: Infinity,
      retry: 1,
    }),
};
