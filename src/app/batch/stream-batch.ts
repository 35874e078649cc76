import { apiErrorBodySchema } from '../../kyc/contract/api.ts';
import { batchEventSchema, type BatchEvent, type BatchRequest } from '../../kyc/contract/batch.ts';
import { apiFetch } from '../api-fetch.ts';

export class BatchError extends Error {
  override name = 'BatchError';
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** `/api/batch`, or `/api/e/<name>/batch` for an environment other than the default. */
export function batchApiPath(environment: string | undefined): string {
  return environment === undefined ? '/api/batch' : `/api/e/${encodeURIComponent(environment)}/batch`;
}

/**
 * Posts the ids once and reads the answer line by line as the server writes it: each event reaches
 * `onEvent` as soon as its line is complete. Aborting the signal cancels the batch (the server then
 * starts no further lookups). Rejects with a BatchError that says what went wrong.
 */
export async function streamBatch(
  environment: string | undefined,
  request: BatchRequest,
  onEvent: (event: BatchEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await apiFetch(batchApiPath(environment), {
      method: 'POST',
      signal,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(request),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new BatchError('The Candidate Lookup server could not be reached. Check your connection.');
  }
  if (!response.ok || !response.body) {
    const body = apiErrorBodySchema.safeParse(await response.json().catch(() => undefined));
    const retryAfter = body.success ? body.data.error.retryAfterSeconds : undefined;
    throw new BatchError(body.success ? body.data.error.message : `The batch failed (HTTP ${response.status}).`, retryAfter);
  }
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
    throw new BatchError('The connection broke during the batch. The rows shown so far are complete; look the others up again.');
  }
  if (!done) throw new BatchError('The batch ended early. The rows shown so far are complete; look the others up again.');
}
