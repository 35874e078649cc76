import { describe, expect, it } from 'vitest';
import { rowOf } from '../../src/server/trail/audit-row.ts';

const refusals = (from: string, to: string) =>
  rowOf(
    { time: to, kind: 'refusals', user: 'eve', role: 'compliance', env: 'default', count: 2, codes: { invalid_id: 2 }, from, to },
    'h',
    'i',
  );

describe("the audit page's detail of a line", () => {
  it("says over how long refusals were counted, never as raw UTC timestamps (the row's own time is shown in the reader's zone)", () => {
    expect(refusals('2026-11-29T15:22:12.855Z', '2026-11-29T15:22:12.855Z').detail).toBe('2 refused (invalid_id 2), all within a second');
    expect(refusals('2026-11-29T15:22:12.000Z', '2026-11-29T15:22:57.000Z').detail).toBe('2 refused (invalid_id 2), over 45 s');
    expect(refusals('2026-11-29T15:20:00.000Z', '2026-11-29T15:29:10.000Z').detail).toBe('2 refused (invalid_id 2), over 9 min');
    expect(refusals('2026-11-29T12:00:00.000Z', '2026-11-29T15:10:00.000Z').detail).toBe('2 refused (invalid_id 2), over 3 h');
    // A window it cannot read: the count alone.
    expect(refusals('yesterday', '2026-11-29T15:10:00.000Z').detail).toBe('2 refused (invalid_id 2)');
    expect(refusals('2026-11-29T12:00:00.000Z', '2026-11-29T15:10:00.000Z').detail).not.toMatch(/\dT\d/);
  });

  it("says an audit search's filters in the page's words, and counts its rows in the right number ('who people; 1 rows' before)", () => {
    const search = (filter: Record<string, unknown>, rows: number) =>
      rowOf({ time: '2026-11-29T15:00:00.000Z', kind: 'audit', what: 'search', user: 'lena', role: 'lead', filter, rows }, 'h', 'i').detail;
    expect(search({ who: 'people', user: 'carol@example.org' }, 1)).toBe("people's lines, user carol@example.org; 1 row");
    expect(search({ who: 'server' }, 2)).toBe("this server's own work; 2 rows");
  });

  it('says of a print whose user had not looked the candidate up lately that it was so (the paper was printed all the same)', () => {
    const print = (extra: Record<string, unknown>) =>
      rowOf(
        { time: '2026-11-29T15:00:00.000Z', kind: 'export', what: 'print', user: 'ana', lookupKind: 'refId', id: 'c-1', ...extra },
        'h',
        'i',
      );
    expect(print({ notLookedUp: true })).toMatchObject({ action: 'print', id: 'c-1', detail: 'not looked up lately by this user' });
    expect(print({}).detail).toBeNull();
    expect(print({ openedUnknown: true }).detail).toBe(
      'whether this user looked it up lately could not be checked (the shared store did not answer)',
    );
  });

  it('says of a print made with the privacy mask on that it was (its line\'s "masked": true), where its row said nothing', () => {
    const print = (extra: Record<string, unknown>) =>
      rowOf(
        { time: '2026-11-29T15:00:00.000Z', kind: 'export', what: 'print', user: 'ana', lookupKind: 'refId', id: 'c-1', ...extra },
        'h',
        'i',
      ).detail;
    expect(print({ masked: true })).toBe('made with the privacy mask on');
    expect(print({ masked: true, notLookedUp: true })).toBe('made with the privacy mask on; not looked up lately by this user');
    // An unmasked print says nothing of the mask, as before; only `true` is a masked print.
    expect(print({})).toBeNull();
    expect(print({ masked: 'yes' })).toBeNull();
  });

  it('says of a line whose user came from what this server remembered of the session (the session store down) that it did', () => {
    const line = { time: '2026-11-29T15:00:00.000Z', kind: 'export', user: 'ana', identityFromCache: true };
    expect(rowOf({ ...line, what: 'print', lookupKind: 'refId', id: 'c-1', openedUnknown: true }, 'h', 'i').detail).toBe(
      'whether this user looked it up lately could not be checked (the shared store did not answer); ' +
        'its user is the one this server last knew for the session (the session store did not answer)',
    );
    expect(rowOf({ ...line, what: 'summary', status: 503, code: 'store_unavailable' }, 'h', 'i').detail).toBe(
      'a copy of the summary; the line names no candidate; its user is the one this server last knew for the session (the session store did not answer)',
    );
  });

  it("reads a refused hand-off's line as refused, not as the copy it names, and says which it was", () => {
    const refused = rowOf(
      { time: '2026-11-29T15:00:00.000Z', kind: 'export', what: 'summary', user: 'ana', status: 409, code: 'not_looked_up' },
      'h',
      'i',
    );
    expect(refused).toMatchObject({ action: 'export', id: null, detail: 'a copy of the summary; the line names no candidate' });
  });
});
