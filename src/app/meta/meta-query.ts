import { queryOptions } from '@tanstack/react-query';
import { apiMetaSchema, type ApiMeta } from '../../kyc/contract/api.ts';
import { apiFetch } from '../api-fetch.ts';

export const metaQuery = () =>
  queryOptions({
    queryKey: ['meta'] as const,
    queryFn: async ({ signal }): Promise<ApiMeta> => {
      const response = await apiFetch('/api/meta', { signal, headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`/api/meta answered HTTP ${response.status}`);
      return apiMetaSchema.parse(await response.json());
    },
    staleTime: Infinity,
    retry: 1,
  });
