import { describe, expect, it } from 'vitest';
import { initialLookupForm, type LookupFormState, lookupFormReducer } from '../../src/app/lookup/lookup-form-state.ts';

const link = { clientId: 'acme_staging', recordId: '0123456789abcdef01234567' };
const list = { ids: ['a', 'b'], removed: [] } as never;

/** A box after a dashboard link was pasted, with a problem and a list left from before. */
const busy: LookupFormState = {
  ...initialLookupForm('old'),
  chosen: 'refId',
  linked: 'recordId',
  problem: 'Enter a refId to look up.',
  cleaned: '1 space',
  linkEnvironment: 'prod',
  dashboard: link,
  list,
  asked: { kinds: ['an e-mail address'], whole: true },
};

/**
 * What a paste leaves unset, each field named here rather than taken from the reducer's own list: a field
 * the reducer forgot to reset must fail these tests, not pass them.
 */
const blank = Object.fromEntries(
  ['problem', 'linked', 'linkEnvironment', 'dashboard', 'list', 'cleaned', 'asked'].map((field) => [field, undefined]),
);

describe("the search box's reducer", () => {
  it('starts with the page’s id and nothing else', () => {
    expect(initialLookupForm('cust_1')).toStrictEqual({ value: 'cust_1' });
  });

  it('typed keeps the switch and the problem, and drops what a paste read, its link’s environment too, and the question asked', () => {
    expect(lookupFormReducer(busy, { type: 'typed', text: 'x' })).toEqual({
      ...busy,
      value: 'x',
      linked: undefined,
      linkEnvironment: undefined,
      cleaned: undefined,
      dashboard: undefined,
      asked: undefined,
    });
  });

  it('cleared empties the box, its link, problem and list, and keeps the switch', () => {
    expect(lookupFormReducer(busy, { type: 'cleared' })).toStrictEqual({ value: '', chosen: 'refId' });
  });

  it('kindChosen sets the switch and drops a link’s kind and a dashboard link', () => {
    expect(lookupFormReducer(busy, { type: 'kindChosen', kind: 'recordId' })).toEqual({
      ...busy,
      chosen: 'recordId',
      linked: undefined,
      dashboard: undefined,
    });
  });

  it('listDismissed and listIdUsed put the list away, listIdUsed with its id in the box', () => {
    expect(lookupFormReducer(busy, { type: 'listDismissed' })).toEqual({ ...busy, list: undefined });
    expect(lookupFormReducer(busy, { type: 'listIdUsed', id: 'b' })).toEqual({ ...busy, list: undefined, value: 'b', asked: undefined });
  });

  it('a pasted list empties the box and is held under it; every paste starts over, a link’s kind and environment dropped', () => {
    const fresh = { ...busy, ...blank };
    expect(lookupFormReducer(busy, { type: 'pastedList', list })).toEqual({ ...fresh, value: '', list });
    expect(lookupFormReducer(busy, { type: 'pastedBadLink', problem: 'no' })).toEqual({ ...fresh, problem: 'no' });
    expect(lookupFormReducer(busy, { type: 'pastedDashboard', link })).toEqual({
      ...fresh,
      linked: 'recordId',
      value: link.recordId,
      dashboard: link,
    });
    expect(lookupFormReducer(busy, { type: 'pastedAppLink', kind: 'refId', id: 'r', environment: undefined })).toEqual({
      ...fresh,
      linked: 'refId',
      value: 'r',
      linkEnvironment: undefined,
    });
    expect(lookupFormReducer(busy, { type: 'pastedId', value: 'cust_2', removed: '2 spaces' })).toEqual({
      ...fresh,
      value: 'cust_2',
      cleaned: '2 spaces',
    });
  });

  it('refused shows the problem; submitted clears it', () => {
    expect(lookupFormReducer(initialLookupForm(''), { type: 'refused', problem: 'bad' }).problem).toBe('bad');
    expect(lookupFormReducer(busy, { type: 'submitted' })).toEqual({ ...busy, problem: undefined, asked: undefined });
  });

  it('asked holds what the text reads like, in place of a problem; a new text, or the lookup, takes the question away', () => {
    const what = { kinds: ['an e-mail address' as const], whole: true };
    const asked = lookupFormReducer({ ...initialLookupForm('ana@example.com'), problem: 'bad' }, { type: 'asked', what });
    expect(asked).toEqual({ value: 'ana@example.com', problem: undefined, asked: what });
    expect(lookupFormReducer(asked, { type: 'typed', text: 'ana@example.co' }).asked).toBeUndefined();
    expect(lookupFormReducer(asked, { type: 'kindChosen', kind: 'recordId' }).asked).toBe(what);
    expect(lookupFormReducer(asked, { type: 'submitted' }).asked).toBeUndefined();
  });

  it("Escape on the home page keeps the switch's choice, as Clear does; on a page it goes back to the page's kind", () => {
    const typed = lookupFormReducer(lookupFormReducer(initialLookupForm(''), { type: 'kindChosen', kind: 'recordId' }), {
      type: 'typed',
      text: 'x',
    });
    expect(lookupFormReducer(typed, { type: 'restored', value: '', keepChoice: true })).toEqual({ value: '', chosen: 'recordId' });
    expect(lookupFormReducer(typed, { type: 'restored', value: 'cust_1', keepChoice: false })).toEqual({ value: 'cust_1' });
  });

  it('a link pasted, then an id pasted over it: the id is looked up by its own kind, in the page’s environment (code review, 29 November)', () => {
    const linked = lookupFormReducer(initialLookupForm(''), {
      type: 'pastedAppLink',
      kind: 'recordId',
      id: '65f1c2a9e4b0d3a1f0c9b802',
      environment: 'staging',
    });
    expect(linked).toMatchObject({ linked: 'recordId', linkEnvironment: 'staging' });
    const pasted = lookupFormReducer(linked, { type: 'pastedId', value: 'cust_000482', removed: undefined });
    // Before: {"linked":"recordId","linkEnvironment":"staging"} stayed, and cust_000482 was asked as a recordId of staging.
    expect(pasted).toStrictEqual({ ...initialLookupForm('cust_000482'), ...blank });
    expect(lookupFormReducer(linked, { type: 'typed', text: 'cust_000482' })).toMatchObject({
      linked: undefined,
      linkEnvironment: undefined,
    });
  });
});
