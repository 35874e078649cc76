import type { z } from '../../kyc/contract/zod.ts';
import { shapeWords } from '../../kyc/contract/shape-words.ts';
import { ApiError } from './api-error.ts';

/**
 * A successful answer's text: JSON in the shape of the schema, or an ApiError saying why not. Loaded by
 * apiRequest with the first answer it checks: zod is not part of the first load.
 */
export function parseAnswer<T>(text: string, schema: z.ZodMiniType<T>, status?: number): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('not_json', 'The server sent an answer that is not JSON.', { status, detail: text.slice(0, 200) });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError('malformed', 'The answer does not have the expected shape.', {
      status,
      detail: shapeWords(parsed.error.issues, json),
    });
  }
  return parsed.data;
}
