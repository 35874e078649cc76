import { describe, expect, it } from 'vitest';
import { AUDIT_PATHS } from '../../src/kyc/contract/audit-search.ts';
import { activity, as, csvRecords, fileLines, LEAD, lookUp, postJson, search } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { candidates, sandboxOnly } from './queue-view-fixture.ts';

/**
 * A document file saved from the candidate page (a picture attribute it does not show: a PDF, an SVG, a
 * scan too large) is a hand-off like a copy (`POST /api/export`, `what: "file"`): its line is written
 * before the file is saved, names the attribute and its type, and only for a candidate its user opened.
 * Real HTTP, the audit log in files, as the audit page reads it.
 */
const amelie = candidates[0]!.record;
const ANA = as('ana', 'compliance');
const NOT_LOOKED_UP_FILE = "This page's lookup is too old to record the file's download: press Refresh, then download it again.";

const { instance } = sandboxOnly();

const saved = (id: string, extra: Record<string, unknown> = { attribute: 'proof_of_address', fileType: 'PDF' }) => ({
  what: 'file',
  kind: 'refId',
  id,
  ...extra,
});
const exportLines = (app: Instance) => fileLines(app.auditLog).filter((line) => line.kind === 'export');

describe('a document file saved', () => {
  it('writes a line what "file" naming the attribute and its type, which the audit page, the CSV and Activity read as a saved file', async () => {
    const app = await instance();
    expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
    const res = await postJson(app, '/api/export', saved(amelie.refId!), ANA);
    expect(res.status, res.body).toBe(200);
    expect(exportLines(app)).toEqual([
      expect.objectContaining({
        user: 'ana',
        role: 'compliance',
        what: 'file',
        attribute: 'proof_of_address',
        fileType: 'PDF',
        lookupKind: 'refId',
        id: amelie.refId,
      }),
    ]);
    const found = await search(app, { action: 'save_file' });
    expect(found.rows).toEqual([
      expect.objectContaining({ action: 'save_file', user: 'ana', id: amelie.refId, detail: 'proof of address, PDF' }),
    ]);
    const seen = await activity(app, { refId: amelie.refId! }, ANA);
    expect(seen.rows.map((row) => [row.user, row.action])).toEqual([
      ['ana', 'save_file'],
      ['ana', 'lookup'],
    ]);
    const csv = await postJson(app, AUDIT_PATHS.export, { action: 'save_file' }, LEAD);
    expect(csv.status, csv.body).toBe(200);
    expect(csvRecords(csv.body)).toEqual([
      expect.objectContaining({ action: 'save_file', id: amelie.refId, detail: 'proof of address, PDF' }),
    ]);
  });

  it("attack: a document file of a candidate never opened is refused in a download's words, and no line names the candidate", async () => {
    const app = await instance();
    const res = await postJson(app, '/api/export', saved(amelie.refId!), ANA);
    expect(res.status).toBe(409);
    expect(JSON.parse(res.body).error).toEqual({ code: 'not_looked_up', message: NOT_LOOKED_UP_FILE });
    // Audited as refused, saying what it was to be, never whose.
    expect(exportLines(app)).toEqual([expect.objectContaining({ user: 'ana', what: 'file', status: 409, code: 'not_looked_up' })]);
    expect(JSON.stringify(fileLines(app.auditLog))).not.toContain(amelie.refId!);
    const refused = await search(app, { action: 'export' });
    expect(refused.rows).toEqual([expect.objectContaining({ id: null, detail: 'a document file to save; the line names no candidate' })]);
    expect((await search(app, { action: 'save_file' })).rows).toEqual([]);
  });

  it('attack: an attribute or type of another form is refused (400) and written nowhere; neither goes on a line of another hand-off', async () => {
    const app = await instance();
    expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
    const send = (extra: Record<string, unknown>) => postJson(app, '/api/export', saved(amelie.refId!, extra), ANA);
    for (const extra of [
      { attribute: '<script>x</script>' },
      { attribute: '../../etc/passwd' },
      { attribute: 'selfie\nforged' },
      { attribute: 'a'.repeat(65) },
      { fileType: 'EXE' },
      { fileType: 'pdf' },
      { fileType: 42 },
    ]) {
      expect((await send(extra)).status, JSON.stringify(extra)).toBe(400);
    }
    expect((await send({ fileType: 'unknown' })).status).toBe(200);
    const summary = await postJson(
      app,
      '/api/export',
      { what: 'summary', kind: 'refId', id: amelie.refId, attribute: 'passport', fileType: 'PDF' },
      ANA,
    );
    expect(summary.status).toBe(200);
    expect(exportLines(app)).toEqual([
      expect.objectContaining({ what: 'file', fileType: 'unknown' }),
      expect.objectContaining({ what: 'summary' }),
    ]);
    expect(exportLines(app)[0]).not.toHaveProperty('attribute');
    expect(exportLines(app)[1]).not.toHaveProperty('attribute');
    expect(exportLines(app)[1]).not.toHaveProperty('fileType');
  });
});
