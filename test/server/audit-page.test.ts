import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_PATHS } from '../../src/kyc/contract/audit-search.ts';
import { activity, as, fileLines, LEAD, lookUp, postJson, search, status } from './audit-trail-helpers.ts';
import { candidates, sandboxOnly } from './queue-view-fixture.ts';
import { similarUsersInFiles } from '../../src/server/trail/audit-users.ts';

/**
 * The audit page without a database (issue 34): this instance's files, read from their end. Who may read
 * the trail, that reading it is audited, a candidate's Activity, the chain's state.
 */
const amelie = candidates[0]!.record;
const ANA = as('ana', 'compliance');
const SAM = as('sam', 'support');

const { instance } = sandboxOnly();

describe('the audit page, for leads only', () => {
  it('a support user and a compliance user get 403 role_forbidden on every audit route; a lead gets the trail, no-store', async () => {
    const app = await instance();
    for (const headers of [SAM, ANA]) {
      for (const res of [
        await postJson(app, AUDIT_PATHS.search, {}, headers),
        await postJson(app, AUDIT_PATHS.export, {}, headers),
        await app.request(AUDIT_PATHS.status, { headers }),
      ]) {
        expect(res.status).toBe(403);
        expect(JSON.parse(res.body).error.code).toBe('role_forbidden');
      }
    }
    expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
    const found = await search(app);
    expect(found.source).toEqual({ kind: 'files' });
    expect(found.rows[0]).toMatchObject({
      action: 'lookup',
      user: 'ana',
      role: 'compliance',
      kind: 'refId',
      id: amelie.refId,
      level: 'full',
    });
    expect(found.rows[0]!.client).toBe('127.0.0.1');
  });

  it('a lead reads the full record, as a compliance user does (the lead role, issue 34)', async () => {
    const app = await instance();
    const res = await lookUp(app, amelie.refId!, LEAD);
    expect(res.status).toBe(200);
    expect(fileLines(app.auditLog).at(-1)).toMatchObject({ user: 'lena', role: 'lead', level: 'full' });
    expect(JSON.parse((await app.request('/api/session', { headers: LEAD })).body)).toEqual({ mode: 'proxy', user: 'lena', role: 'lead' });
  });

  it('a support user sees no Activity: 403, and a compliance user the lookups of this candidate by either id', async () => {
    const app = await instance();
    expect((await lookUp(app, amelie.refId!, SAM)).status).toBe(200);
    await app.request(`/api/candidates/recordId/${amelie.recordId}`, { headers: ANA });
    const refused = await postJson(app, '/api/activity', { refId: amelie.refId }, SAM);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error.code).toBe('role_forbidden');
    const seen = await activity(app, { refId: amelie.refId!, recordId: amelie.recordId! }, ANA);
    expect(seen.rows.map((row) => [row.user, row.kind, row.level])).toEqual([
      ['ana', 'recordId', 'full'],
      ['sam', 'refId', 'status'],
    ]);
    // Another candidate's lookups, and the other id alone, are not this one's.
    expect((await activity(app, { refId: amelie.refId! }, ANA)).rows.map((row) => row.user)).toEqual(['sam']);
  });

  it('reading the trail is audited: each search and export writes its line, with the filter, before it answers', async () => {
    const app = await instance();
    await lookUp(app, amelie.refId!, ANA);
    const found = await search(app, { user: 'ana', refId: amelie.refId });
    expect(found.rows).toHaveLength(1);
    const csv = await postJson(app, AUDIT_PATHS.export, { user: 'ana' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = fileLines(app.auditLog).filter((line) => line.kind === 'audit');
    expect(lines).toEqual([
      expect.objectContaining({ user: 'lena', role: 'lead', what: 'search', filter: { user: 'ana', refId: amelie.refId }, rows: 1 }),
      expect.objectContaining({ user: 'lena', role: 'lead', what: 'export', filter: { user: 'ana' } }),
    ]);
    // The search of the trail is found in the trail, under its own action.
    expect((await search(app, { action: 'audit_search' })).rows[0]).toMatchObject({ user: 'lena', kind: 'refId', id: amelie.refId });
  });

  it("attack: one lead's searches grow the audit log without a bound (each writes a line quoting its filter)", async () => {
    const started = await instance({}, { limits: { lookupsPerMinute: 0, auditSearchesPerMinute: 3 } });
    const filter = { user: 'x'.repeat(1000) };
    // A GET searches nothing: refused 405, and not charged.
    for (let i = 0; i < 4; i++) expect((await started.request(AUDIT_PATHS.search, { headers: LEAD })).status).toBe(405);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await postJson(started, AUDIT_PATHS.search, filter)).status);
    const refused = await postJson(started, AUDIT_PATHS.search, filter);
    const exported = await postJson(started, AUDIT_PATHS.export, filter);
    // Another lead has a bucket of their own.
    const other = await postJson(started, AUDIT_PATHS.search, filter, as('lee', 'lead'));
    expect([...codes, refused.status, exported.status, other.status]).toEqual([200, 200, 200, 429, 429, 200]);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    // One bucket, one sentence: an export refused after searches is not said to be one of many exports.
    for (const answer of [refused, exported]) {
      expect(JSON.parse(answer.body).error.message).toMatch(
        /^You have searched or exported the audit trail many times in a short time\. Try again in \d+ s\.$/,
      );
      // No `reason`: the searches' limit itself, which holds Search as well as Download CSV (not exports_under_way).
      expect(JSON.parse(answer.body).error).not.toHaveProperty('reason');
    }
    // Three searches by lena and one by lee quote their filters; the refusals none.
    const quoting = fileLines(started.auditLog).filter((line) => line.kind === 'audit' && line.filter);
    expect(quoting.map((line) => line.user)).toEqual(['lena', 'lena', 'lena', 'lee']);
  });

  it("a search by one id also finds the lookups asked by the candidate's other id, as the queue index knows it, and says so", async () => {
    const app = await instance();
    // Ana opens the candidate by recordId (from the queue, say): her lookup's line names the recordId alone.
    expect((await app.request(`/api/candidates/recordId/${amelie.recordId}`, { headers: ANA })).status).toBe(200);
    expect((await lookUp(app, amelie.refId!, SAM)).status).toBe(200);
    const lookups = (rows: Array<{ user: string | null; kind: string | null }>) => rows.map((row) => [row.user, row.kind]);
    await expect
      .poll(async () => (await search(app, { refId: amelie.refId, action: 'lookup' })).alsoSearched)
      .toEqual({
        recordId: amelie.recordId,
      });
    const byRef = await search(app, { refId: amelie.refId, action: 'lookup' });
    expect(lookups(byRef.rows)).toEqual([
      ['sam', 'refId'],
      ['ana', 'recordId'],
    ]);
    const byRecord = await search(app, { recordId: amelie.recordId, action: 'lookup' });
    expect(byRecord.alsoSearched).toEqual({ refId: amelie.refId });
    expect(lookups(byRecord.rows)).toEqual(lookups(byRef.rows));
    const csv = await postJson(app, AUDIT_PATHS.export, { refId: amelie.refId, action: 'lookup' });
    expect(csv.body.trim().split('\r\n')).toHaveLength(3);
    // An environment whose index does not know the id: the search is as asked.
    const elsewhere = await search(app, { refId: amelie.refId, env: 'elsewhere' });
    expect(elsewhere.alsoSearched).toBeUndefined();
    expect(elsewhere.rows).toEqual([]);
    // The lead's line says what was asked, not what was added.
    expect(fileLines(app.auditLog).find((line) => line.kind === 'audit')).toMatchObject({
      filter: { refId: amelie.refId, action: 'lookup' },
    });
  });

  it("a candidate page's own status re-check is in the trail as one, not as a lookup, and not in the candidate's Activity", async () => {
    const app = await instance();
    expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
    // What the page asks after a live update, or when its tab comes back.
    expect((await app.request(`/api/status/refId/${amelie.refId}`, { headers: ANA })).status).toBe(200);
    expect(fileLines(app.auditLog).filter((line) => line.kind === 'refId')).toEqual([
      expect.not.objectContaining({ statusCheck: true }),
      // The lookup's closing line: what its answer held, read onto its row (closing-lines.ts).
      expect.objectContaining({ user: 'ana', level: 'full', held: expect.objectContaining({ pictures: 0 }) }),
      expect.objectContaining({ user: 'ana', level: 'status', statusCheck: true }),
    ]);
    const rows = (await search(app, { refId: amelie.refId })).rows;
    expect(rows.map((row) => [row.action, row.level])).toEqual([
      ['status_check', 'status'],
      ['lookup', 'full'],
    ]);
    expect((await search(app, { action: 'lookup' })).rows).toHaveLength(1);
    const seen = await activity(app, { refId: amelie.refId! }, ANA);
    expect(seen.rows.map((row) => row.action)).toEqual(['lookup']);
  });

  it("a copied certificate is in the candidate's Activity and on the audit page as one, naming its slug", async () => {
    const app = await instance();
    expect((await lookUp(app, amelie.refId!, ANA)).status).toBe(200);
    const copied = await postJson(
      app,
      '/api/export',
      { what: 'certificate', kind: 'refId', id: amelie.refId, slug: 'onfido-service-cert' },
      ANA,
    );
    expect(copied.status, copied.body).toBe(200);
    const seen = await activity(app, { refId: amelie.refId! }, LEAD);
    expect(seen.rows.map((row) => [row.user, row.action])).toEqual([
      ['ana', 'copy_certificate'],
      ['ana', 'lookup'],
    ]);
    const found = await search(app, { action: 'copy_certificate' });
    expect(found.rows).toEqual([expect.objectContaining({ user: 'ana', id: amelie.refId, detail: 'certificate onfido-service-cert' })]);
  });

  it('a bad filter is refused with what is wrong, and a GET of the search with 405', async () => {
    const app = await instance();
    const bad = await postJson(app, AUDIT_PATHS.search, { from: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(/from: must be an ISO 8601 time/);
    expect((await app.request(AUDIT_PATHS.search, { headers: LEAD })).status).toBe(405);
    const form = await app.request(AUDIT_PATHS.search, { method: 'POST', headers: { ...LEAD, 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
  });
});

/** An instance whose audit file holds four of sam's lookups, the third line's user then changed to bob; the file's lines. */
async function withThirdLineEdited() {
  const app = await instance();
  for (let i = 0; i < 4; i++) await lookUp(app, amelie.refId!, SAM);
  const text = readFileSync(app.auditLog, 'utf8').split('\n');
  text[2] = text[2]!.replace('"user":"sam"', '"user":"bob"');
  writeFileSync(app.auditLog, text.join('\n'));
  return { app, text };
}

describe('the chain state on the audit page', () => {
  // A support user's lookups: one line each (a full answer's request closes with a second line, held-audit.test.ts).
  it('says each file is intact to its last line, then where an edited line breaks it, and a file cut at its end', async () => {
    const app = await instance();
    for (let i = 0; i < 3; i++) await lookUp(app, amelie.refId!, SAM);
    const intact = (await status(app)).instances[0]!;
    expect(intact).toMatchObject({ self: true, files: [{ file: 'audit.jsonl', intact: true, lines: 3 }] });
    expect(intact.files[0]!.lastLineAt).toBeDefined();

    // The second line's user changed: the third line's "prev" no longer matches.
    const text = readFileSync(app.auditLog, 'utf8').split('\n');
    text[1] = text[1]!.replace('"user":"sam"', '"user":"bob"');
    writeFileSync(app.auditLog, text.join('\n'));
    const edited = (await status(app)).instances[0]!.files[0]!;
    // Named at the edited line, the first that cannot be vouched for (the third only noticed it): one line intact before it.
    expect(edited).toMatchObject({ intact: false, lines: 1, broken: { line: 2 } });
    expect(edited.broken!.reason).toMatch(/line 2 was edited/);
  });

  it('names the last line the chain vouches for before a break, its time and hash, so the page can mark the rows after it', async () => {
    const { lineHash } = await import('../../src/server/audit/audit-chain.ts');
    // The third line edited: the second is the last one vouched for.
    const { app, text } = await withThirdLineEdited();
    const edited = (await status(app)).instances[0]!.files[0]!;
    expect(edited.broken).toMatchObject({
      line: 3,
      lastVouched: { time: JSON.parse(text[1]!).time, hash: lineHash(Buffer.from(text[1]!)) },
    });
    // The rows after it are the ones the page marks: their times are later.
    const rows = (await search(app)).rows;
    const after = rows.filter((row) => row.time > edited.broken!.lastVouched!.time);
    expect(after.map((row) => row.hash)).not.toContain(edited.broken!.lastVouched!.hash);
    expect(rows.map((row) => row.hash)).toContain(edited.broken!.lastVouched!.hash);
  });

  it('attack: a back-dated edited audit line escapes the mark', async () => {
    const { lineHash } = await import('../../src/server/audit/audit-chain.ts');
    const app = await instance();
    for (let i = 0; i < 4; i++) await lookUp(app, amelie.refId!, SAM);
    const text = readFileSync(app.auditLog, 'utf8').split('\n');
    // The third line edited to say it was written an hour before the first: by its date it stands before the break.
    const anHourBefore = new Date(Date.parse(JSON.parse(text[0]!).time) - 3_600_000).toISOString();
    text[2] = text[2]!.replace(/"time":"[^"]+"/, `"time":"${anHourBefore}"`);
    writeFileSync(app.auditLog, text.join('\n'));
    const rows = (await search(app, { action: 'lookup' })).rows;
    const marked = (line: string) => rows.find((row) => row.hash === lineHash(line))?.unvouched === true;
    // Marked by its place in the file: the edited line and the one after it, not the two before.
    expect(text.slice(0, 4).map(marked)).toEqual([false, false, true, true]);
    expect(rows.find((row) => row.hash === lineHash(text[2]!))?.time).toBe(anHourBefore);
  });

  it("attack: an edited audit line shows in a candidate's Activity as if the chain vouched for it", async () => {
    const { lineHash } = await import('../../src/server/audit/audit-chain.ts');
    // The third line's user changed: a compliance user reading the Activity would take "bob" for a fact.
    const { app, text } = await withThirdLineEdited();
    const rows = (await activity(app, { refId: amelie.refId! }, ANA)).rows;
    const marked = (line: string) => rows.find((row) => row.hash === lineHash(line))?.unvouched === true;
    // Marked as the audit page's search marks them: the edited line and the one after it, not the two before.
    expect(text.slice(0, 4).map(marked)).toEqual([false, false, true, true]);
  });

  it("marks a rotated file's edited last line and the lines after it, not the whole trail, and names the line before it as vouched for", async () => {
    const { lineHash } = await import('../../src/server/audit/audit-chain.ts');
    const app = await instance();
    for (let i = 0; i < 3; i++) await lookUp(app, amelie.refId!, SAM);
    renameSync(app.auditLog, `${app.auditLog}.1`);
    const rotated = readFileSync(`${app.auditLog}.1`, 'utf8').split('\n');
    appendFileSync(
      app.auditLog,
      `{"prev":"${lineHash(rotated[2]!)}","time":"${new Date().toISOString()}","kind":"note","note":"rotated"}\n`,
    );
    // The rotated file's last line edited: only the first line of the current file notices.
    rotated[2] = rotated[2]!.replace('"user":"sam"', '"user":"bob"');
    writeFileSync(`${app.auditLog}.1`, rotated.join('\n'));
    const files = (await status(app)).instances[0]!.files;
    expect(files[0]).toMatchObject({ file: 'audit.jsonl', intact: false, broken: { line: 1 } });
    expect(files[0]!.broken!.lastVouched).toEqual({ time: JSON.parse(rotated[1]!).time, hash: lineHash(rotated[1]!) });
    const rows = (await search(app)).rows;
    expect(rows.map((row) => [row.action, row.user, row.unvouched ?? false])).toEqual([
      ['note', null, true],
      ['lookup', 'bob', true],
      ['lookup', 'sam', false],
      ['lookup', 'sam', false],
    ]);
  });

  it('says a file got shorter than when it was checked: lines cut from its end, its last line left the last one vouched for', async () => {
    const app = await instance();
    for (let i = 0; i < 3; i++) await lookUp(app, amelie.refId!, SAM);
    expect((await status(app)).instances[0]!.files[0]).toMatchObject({ intact: true, lines: 3 });
    const lines = readFileSync(app.auditLog, 'utf8').split('\n');
    writeFileSync(app.auditLog, `${lines.slice(0, 2).join('\n')}\n`);
    const cut = (await status(app)).instances[0]!.files[0]!;
    expect(cut.intact).toBe(false);
    expect(cut.broken!.reason).toMatch(/shorter than when it was checked .*: lines were cut from its end/);
    // Its last line left is the last one the chain vouches for (the page marks the rows after it).
    expect(cut.broken!.lastVouched?.time).toBe(JSON.parse(lines[1]!).time);
  });

  it('checks a rotated file and the current one as one chain, and reads both when searching', async () => {
    const app = await instance();
    await lookUp(app, amelie.refId!, SAM);
    renameSync(app.auditLog, `${app.auditLog}.1`);
    // The writer notices the rotation within a second; a line written by hand chains on meanwhile.
    const last = readFileSync(`${app.auditLog}.1`, 'utf8').trim();
    const { lineHash } = await import('../../src/server/audit/audit-chain.ts');
    appendFileSync(app.auditLog, `{"prev":"${lineHash(last)}","time":"${new Date().toISOString()}","kind":"note","note":"rotated"}\n`);
    const files = (await status(app)).instances[0]!.files;
    expect(files.map((file) => [file.file, file.intact, file.lines])).toEqual([
      ['audit.jsonl', true, 1],
      ['audit.jsonl.1', true, 1],
    ]);
    const rows = (await search(app)).rows;
    expect(rows.map((row) => row.action)).toEqual(['note', 'lookup']);
    expect(path.basename(app.auditLog)).toBe('audit.jsonl');
  });
});

describe('a search by part of a user’s name', () => {
  it('finds no line, and offers the names in the trail that contain it, capitals ignored; none for a whole name', async () => {
    const app = await instance();
    for (const user of ['carla@example.org', 'Carlos', 'ana'])
      expect((await lookUp(app, amelie.refId!, as(user, 'compliance'))).status).toBe(200);
    const carla = await search(app, { who: 'people', user: 'CARLA' });
    expect(carla.rows).toEqual([]);
    expect(carla.similarUsers).toEqual(['carla@example.org']);
    expect((await search(app, { user: 'carl' })).similarUsers).toEqual(['Carlos', 'carla@example.org']);
    // The whole name found nothing under another filter: it is not offered to itself.
    expect((await search(app, { user: 'ana', action: 'print' })).similarUsers).toBeUndefined();
    // A search that found lines offers nothing.
    expect((await search(app, { user: 'ana' })).similarUsers).toBeUndefined();
  });

  it('offers at most five names', async () => {
    const app = await instance();
    for (let i = 1; i <= 7; i++) await lookUp(app, amelie.refId!, as(`reviewer${i}`, 'compliance'));
    const found = await search(app, { user: 'review' });
    expect(found.similarUsers).toHaveLength(5);
    expect(found.similarUsers!.every((name) => /^reviewer\d$/.test(name))).toBe(true);
  });

  it("attack: a candidate's id, a searched filter and this server's own names are never offered, only a line's own user", async () => {
    const app = await instance();
    // An id that holds the text, and a search whose filter quotes it: both are written to the trail.
    await lookUp(app, 'carla-candidate-77', as('ana', 'compliance'));
    await search(app, { user: 'secret-carla-quoted' });
    // This server's own work, as the queue index's crawler writes it (appended here: this instance crawls nothing).
    const crawler = {
      prev: 'start',
      time: new Date().toISOString(),
      kind: 'lookup',
      user: '(queue-index)',
      role: 'support',
      env: 'default',
    };
    appendFileSync(app.auditLog, `${JSON.stringify(crawler)}\n`);
    expect((await search(app, { who: 'server' })).rows.map((row) => row.user)).toContain('(queue-index)');
    await lookUp(app, amelie.refId!, as('carla.m', 'compliance'));
    // Only the name of someone who did something: not the id, nor the quoted filter, that hold "carla" too.
    expect((await search(app, { user: 'carla' })).similarUsers).toEqual(['carla.m']);
    expect((await search(app, { user: 'candidate-77' })).similarUsers).toBeUndefined();
    expect((await search(app, { user: 'quoted' })).similarUsers).toBeUndefined();
    expect((await search(app, { user: 'queue' })).similarUsers).toBeUndefined();
  });

  it("attack: the names offered keep to what is left of the search's time, not a bound of their own, and a typed text longer than any name offers none", async () => {
    const app = await instance();
    await lookUp(app, amelie.refId!, as('carla.m', 'compliance'));
    const bounds = { maxLines: 1000, maxMs: 2000 };
    expect(await similarUsersInFiles(app.auditLog, 'carla', bounds, performance.now())).toEqual(['carla.m']);
    // The search that found nothing took its whole time: nothing is left for the names (they took another 2 s).
    expect(await similarUsersInFiles(app.auditLog, 'carla', bounds, performance.now() - bounds.maxMs - 1)).toEqual([]);
    // A part of a name as long as a whole one can be is no search through the files.
    // The longest name a sign-in gives (256 characters) is found by a part of it in capitals.
    const long = `${'a'.repeat(244)}@example.org`;
    expect((await lookUp(app, amelie.refId!, as(long, 'compliance'))).status).toBe(200);
    expect(await similarUsersInFiles(app.auditLog, 'A'.repeat(244), bounds, performance.now())).toEqual([long]);
  });
});
