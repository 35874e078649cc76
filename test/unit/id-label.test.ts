import { describe, expect, it } from 'vitest';
import { splitIdList } from '../../src/kyc/view/id-list.ts';
import { lineId, splitLabel, unlabelList } from '../../src/kyc/view/id-label.ts';
import { interpretPaste } from '../../src/app/lookup/paste.ts';

describe('one id after a label or a "#": the search box and each batch line alike', () => {
  it.each([
    ['RefID #user-7781', 'user-7781'],
    ['Customer ref cust_000482', 'cust_000482'],
    ['refId: cust_000482.', 'cust_000482'],
    ['#user-7781', 'user-7781'],
    // Words that name an id column alone are a heading, not a label; a "#" alone stays; a name with a space is one id.
    ['Record ID', 'Record ID'],
    ['#', '#'],
    ['Wang Xiuying', 'Wang Xiuying'],
    ['cust_1 cust_2', 'cust_1 cust_2'],
    // A bare number after an id column's word may be the refId's own end: kept whole (it was "42", maybe another's).
    ['Customer 42', 'Customer 42'],
    ['ID 4410', 'ID 4410'],
    ['Customer #42', '42'],
  ])('%j is read as %j', (line, id) => expect(lineId(line)).toBe(id));

  it.each(['Customer 42', 'ID 4410'])('a paste of %j is that one id, not a list of its words nor the number alone', (text) => {
    // Before: a list of two "ids", the number among them (and before that, the number alone).
    expect(interpretPaste(text)).toEqual({ type: 'id', id: text });
  });

  it('reads a label on its own line as no label: a heading over one id is said as a heading', () => {
    expect(splitLabel('refId\ncust_000482')).toBeUndefined();
    expect(interpretPaste('refId\ncust_000482')).toEqual({ type: 'id', id: 'cust_000482', removed: 'the column\'s heading "refId"' });
  });

  it('counts a repeat again once the label and "#" are gone, on the line it was pasted on', () => {
    // A lone "#user-7781" is a sentence's mark, dropped by splitIdList itself (splitMarks); after a label, it is this rule's.
    const list = unlabelList(splitIdList('RefID #user-7781\nuser-7781\nacct-30291'));
    expect(list).toMatchObject({ ids: ['user-7781', 'acct-30291'], duplicates: 1, unlabelled: 1 });
    expect(list.entries[1]).toEqual({ line: 2, id: 'user-7781', repeatOf: 1 });
  });
});
