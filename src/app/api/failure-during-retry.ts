import { useState } from 'react';

/**
 * The error a query showed before its Try again, while that try is under way. TanStack Query puts a query
 * that has no data back to `pending` when it is fetched again, its error cleared: a page that shows its
 * skeleton for `pending` took the error screen away, and the keyboard with the button that was pressed.
 * With this the page keeps the error screen, its button busy, until the try has answered. Only for the
 * same `key` (the lookup's environment, kind and id): another lookup starts with its skeleton.
 */
export function useFailureDuringRetry(
  query: { error: Error | null; isPending: boolean; isFetching: boolean },
  key: string,
): Error | undefined {
  const [failed, setFailed] = useState<{ key: string; error: Error }>();
  if (query.error && (failed?.key !== key || failed.error !== query.error)) setFailed({ key, error: query.error });
  return query.isPending && query.isFetching && failed?.key === key ? failed.error : undefined;
}
