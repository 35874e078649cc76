import { apiBase, apiErrorBodySchema, type ExportRequest } from '../../kyc/contract/api.ts';
import { apiFetch } from '../api-fetch.ts';

/**
 * Writes the audit line of a hand-off (`kind: "export"`) before it happens. Rejects with the server's
 * message when the line could not be written: the copy is then not made.
 */
export async function recordExport(environment: string | undefined, request: ExportRequest, options: { keepalive?: boolean } = {}) {
  let response: Response;
  try {
    response = await apiFetch(`${apiBase(environment)}/export`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
      // A print's line is sent as the print dialog opens; it must not be dropped if the page goes.
      keepalive: options.keepalive,
    });
  } catch {
    throw new Error('The Candidate Lookup server could not be reached, so this could not be recorded.');
  }
  if (response.ok) return;
  const body = apiErrorBodySchema.safeParse(await response.json().catch(() => undefined));
  throw new Error(body.success ? body.data.error.message : `This could not be recorded (HTTP ${response.status}).`);
}
