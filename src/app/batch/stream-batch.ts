import { batchApiPath } from '../../kyc/contract/api.ts';
import { batchEventSchema, type BatchEvent, type BatchRequest } from '../../kyc/contract/batch.ts';
import { ApiError } from '../api/api-error.ts';
import { apiResponse } from '../api/api-request.ts';

/**
 * What the answer's `RateLimit-*` headers said of the user's batch budget once this batch's ids were
 * reserved: the most ids a minute's batches look up, how many are left, and the seconds until it is whole.
 */
export interface BudgetEvent {
  type: 'budget';
  idsAtMost: number;
  idsLeft: number;
  wholeInSeconds: number;
}

/** The budget the answer's headers say, or undefined when it says none (no budget, an older server). */
function budgetOf(headers: Headers): BudgetEvent | undefined {
  const [idsAtMost, idsLeft, wholeInSeconds] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => {
    const value = headers.get(name);
    return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
  });
  if (idsAtMost === undefined || idsLeft === undefined || wholeInSeconds === undefined) return undefined;
  return { type: 'budget', idsAtMost, idsLeft, wholeInSeconds };
}

/**
 * Posts the ids once and reads the answer line by line as the server writes it: each event reaches
 * `onEvent` as soon as its line is complete. Aborting the signal cancels the batch (the server then
 * starts no further lookups); what is left of the budget comes first (`BudgetEvent`). Rejects with an ApiError that says what went wrong.
 */
export async function streamBatch(
  environment: string | undefined,
  request: BatchRequest,
  onEvent: (event: BatchEvent | BudgetEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await apiResponse(batchApiPath(environment), {
    method: 'POST',
    signal,
    cache: 'no-store',
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify(request),
  });
  if (!response.body) throw new ApiError('interrupted', 'The batch answered without a body. Try again.', { status: response.status });
  const budget = budgetOf(response.headers);
  if (budget) onEvent(budget);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let done = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffered += chunk.value;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim() === '') continue;
        const event = batchEventSchema.parse(JSON.parse(line));
        if (event.type === 'done') done = true;
        onEvent(event);
      }
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(
      'interrupted',
      'The connection broke during the batch. The rows shown so far are complete; look the others up again.',
    );
  }
  if (!done) throw new ApiError('interrupted', 'The batch ended early. The rows shown so far are complete; look the others up again.');
}
