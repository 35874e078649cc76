import { afterEach, describe, expect, it } from 'vitest';
import {
  draftsKey,
  forgetDrafts,
  keepDrafts,
  MAX_KEPT_DRAFTS,
  recallDrafts,
  type ShownReplies,
} from '../../src/app/handoff/reply-drafts.ts';
import { clearVisited } from '../../src/app/recent/visited.ts';

const madeFor: ShownReplies = { status: 'waiting', replies: [{ template: 'waiting', name: 'Standard', reply: 'We have your documents.' }] };
const key = (n: number) => draftsKey('default', 'sam', `refId:cand-${n}`);

// One module graph per worker (vite.config.ts): the tab's memory is emptied as sign-out does.
afterEach(() => clearVisited());

describe('reply drafts in memory', () => {
  it(`keeps the ${MAX_KEPT_DRAFTS} candidates edited last, the oldest going first; an edit makes a candidate the newest again`, () => {
    for (let n = 1; n <= MAX_KEPT_DRAFTS; n++) keepDrafts(key(n), { waiting: `draft ${n}` }, madeFor);
    keepDrafts(key(1), { waiting: 'draft 1, edited again' }, madeFor);
    keepDrafts(key(MAX_KEPT_DRAFTS + 1), { waiting: 'one more' }, madeFor);
    expect(recallDrafts(key(2))).toBeUndefined();
    expect(recallDrafts(key(1))?.drafts).toEqual({ waiting: 'draft 1, edited again' });
    expect(recallDrafts(key(3))?.drafts).toEqual({ waiting: 'draft 3' });
    expect(recallDrafts(key(MAX_KEPT_DRAFTS + 1))?.madeFor).toEqual(madeFor);
  });

  it("keys by environment, user and candidate: another's draft is never recalled", () => {
    keepDrafts(draftsKey('default', 'sam', 'recordId:abc'), { waiting: 'mine' }, madeFor);
    expect(recallDrafts(draftsKey('staging', 'sam', 'recordId:abc'))).toBeUndefined();
    expect(recallDrafts(draftsKey('default', 'ana', 'recordId:abc'))).toBeUndefined();
    expect(recallDrafts(draftsKey('default', 'sam', 'recordId:abd'))).toBeUndefined();
    expect(recallDrafts(draftsKey('default', 'sam', 'recordId:abc'))?.drafts).toEqual({ waiting: 'mine' });
  });

  it('forgets a candidate with no draft left, one copied, and all of them when the tab forgets its candidates (sign-in, sign-out)', () => {
    keepDrafts(key(1), { waiting: 'a' }, madeFor);
    keepDrafts(key(1), {}, madeFor);
    expect(recallDrafts(key(1))).toBeUndefined();
    keepDrafts(key(2), { waiting: 'b' }, madeFor);
    forgetDrafts(key(2));
    expect(recallDrafts(key(2))).toBeUndefined();
    keepDrafts(key(3), { waiting: 'c' }, madeFor);
    clearVisited();
    expect(recallDrafts(key(3))).toBeUndefined();
  });
});
