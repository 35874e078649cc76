import {
  ATTRIBUTE_NAME,
  CERTIFICATE_SLUG,
  type ExportAnswer,
  type ExportRequest,
  exportAnswerSchema,
  exportApiPath,
} from '../../kyc/contract/api.ts';
import type { BatchExportRequest } from '../../kyc/contract/batch-handoff.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { SniffedType } from '../../kyc/contract/picture-type.ts';
import { ApiError } from '../api/api-error.ts';
import { apiRequest } from '../api/api-request.ts';

/**
 * Writes the audit line of a hand-off (`kind: "export"`) before it happens. Rejects with the server's
 * message when the line could not be written: the copy is then not made.
 */
export async function recordExport(environment: string | undefined, request: ExportRequest | BatchExportRequest): Promise<void> {
  await apiRequest(exportApiPath(environment), null, exportInit(request)).catch(reworded);
}

/**
 * Writes a print's audit line, sent as the print dialog opens: it must not be dropped if the page goes
 * (keepalive). Answers how the line is marked (exportAnswerSchema), which only a print's answer says.
 */
export function recordPrint(environment: string | undefined, request: ExportRequest): Promise<ExportAnswer> {
  return apiRequest(exportApiPath(environment), exportAnswerSchema, { ...exportInit(request), keepalive: true }).catch(reworded);
}

function exportInit(request: ExportRequest | BatchExportRequest): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) };
}

function reworded(error: unknown): never {
  if (error instanceof ApiError && error.code === 'server_unreachable')
    throw error.reworded('The Candidate Lookup server could not be reached, so this could not be recorded.');
  throw error;
}

/**
 * A certificate copied, by its slug: the service chooses slugs, so one the export would refuse is left
 * out (the line says "certificate" alone) rather than have the audit, and with it the copy, refused.
 */
export function certificateExport(kind: LookupKind, id: string, slug: string): ExportRequest {
  return { what: 'certificate', kind, id, ...(CERTIFICATE_SLUG.test(slug) ? { slug } : {}) };
}

/**
 * A document file saved, by its attribute's name and its sniffed type: the service chooses names, so one
 * the export would refuse is left out (the line names the type alone) rather than have the save refused.
 */
export function fileExport(kind: LookupKind, id: string, name: string, type: SniffedType): ExportRequest {
  return { what: 'file', kind, id, fileType: type.label, ...(ATTRIBUTE_NAME.test(name) ? { attribute: name } : {}) };
}
