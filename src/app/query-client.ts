import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A full record can weigh megabytes: never re-download it because the window regained focus.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    },
  });
}
