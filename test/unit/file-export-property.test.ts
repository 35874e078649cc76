import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileExport } from '../../src/app/handoff/record-export.ts';
import { ATTRIBUTE_NAME, exportRequestSchema } from '../../src/kyc/contract/api.ts';
import { FILE_TYPE_LABELS, sniffedTypeOfMime, sniffImageType } from '../../src/kyc/contract/picture-type.ts';
import { rowOf } from '../../src/server/trail/audit-row.ts';

/**
 * The rule a compliance lead relies on: every document file the page can save is recorded. The export
 * the page sends for it is never refused for its form, whatever name the service gave the attribute and
 * whatever its bytes are (the type is a word of FILE_TYPE_LABELS, the name left out when it is not one the
 * line may hold), and the trail reads its line as a saved file, naming what the line names.
 */

const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 80 }),
  // Beginnings the sniffer knows, with anything after them.
  fc
    .tuple(
      fc.constantFrom('%PDF-', 'II*\u0000', 'GIF89a', '<svg', '<?xml <svg', '<!doctype html', '<x', '\uFEFF <html', 'BM'),
      fc.uint8Array({ maxLength: 40 }),
    )
    .map(([head, rest]) => new Uint8Array([...new TextEncoder().encode(head), ...rest])),
);
const attributeName = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(ATTRIBUTE_NAME),
  fc.constantFrom('proof_of_address', 'passport', '../selfie<x>', 'a\nb', `${'a'.repeat(64)}`, `${'a'.repeat(65)}`, '-x', ''),
);

describe("a saved document file's export", () => {
  it('names a type of FILE_TYPE_LABELS for any bytes, and for any type the server names in a picture part', () => {
    fc.assert(
      fc.property(bytes, fc.string(), (head, mime) => {
        expect(FILE_TYPE_LABELS).toContain(sniffImageType(head).label);
        expect(FILE_TYPE_LABELS).toContain(sniffedTypeOfMime(mime).label);
      }),
    );
  });

  it('is never refused for its form, names the attribute exactly when the line may hold it, and reads as a saved file on the trail', () => {
    fc.assert(
      fc.property(attributeName, bytes, fc.constantFrom('refId' as const, 'recordId' as const), (name, head, kind) => {
        const type = sniffImageType(head);
        const request = fileExport(kind, 'c-1', name, type);
        const parsed = exportRequestSchema.safeParse(request);
        expect(parsed.success, JSON.stringify(request)).toBe(true);
        expect(request).toEqual({
          what: 'file',
          kind,
          id: 'c-1',
          fileType: type.label,
          ...(ATTRIBUTE_NAME.test(name) ? { attribute: name } : {}),
        });
        // The line the server writes of it (export-route.ts): the request's kind is how the candidate was looked up.
        const { kind: lookupKind, ...named } = request;
        const line = { time: '2026-11-30T12:00:00.000Z', user: 'ana', ...named, kind: 'export', lookupKind };
        const row = rowOf(line, 'h', 'i');
        expect(row.action).toBe('save_file');
        expect(row.detail).toContain(type.label === 'unknown' ? 'unknown type' : type.label);
        if (request.attribute) expect(row.detail!.startsWith(request.attribute.replace(/[_.-]+/g, ' ').trim())).toBe(true);
      }),
    );
  });
});
