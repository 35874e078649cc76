import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guessKind, looksLikeRecordId } from '../../src/kyc/contract/lookup.ts';
import { interpretPaste } from '../../src/app/lookup/paste.ts';
import { cleanId, describeRemoved, unwrapId } from '../../src/kyc/view/id-input.ts';
import { splitMarks } from '../../src/kyc/view/sentence-marks.ts';
import { givenNote, splitIdList } from '../../src/kyc/view/id-list.ts';
import { entriesText } from '../../src/app/lookup/batch-offer.tsx';
import { parseAppLink, splitEnvironmentPath, environmentPath } from '../../src/app/routes.ts';
import { withoutMarks } from '../../src/app/candidate/id-marks.ts';

describe('cleanId', () => {
  it.each([
    ['cust_000482', 'cust_000482', undefined],
    ['cust_\u200b000482', 'cust_000482', '1 zero-width space'],
    ['\u200bcust_000482\u200d\u2060', 'cust_000482', '3 zero-width spaces'],
    ['\u00a0cust_000482\u00a0', 'cust_000482', '2 no-break spaces'],
    ['\ufeffcust_000482', 'cust_000482', '1 byte order mark'],
    ['\u200ecust_000482\u200f\u202a\u2066', 'cust_000482', '4 bidirectional marks'],
    ['  cust_000482 \t', 'cust_000482', '1 tab and 3 spaces at the start or end'],
    ['cust_000482\n', 'cust_000482', '1 line break at the start or end'],
    ['\r\ncust_000482\r\n', 'cust_000482', '2 line breaks at the start or end'],
    ['\u200b cust_000482', 'cust_000482', '1 zero-width space and 1 space at the start or end'],
    ['cu\u00adst', 'cust', '1 soft hyphen'],
  ])('cleans %j', (raw, id, message) => {
    const cleaned = cleanId(raw);
    expect(cleaned.id).toBe(id);
    expect(describeRemoved(cleaned.removed)).toBe(message);
  });

  it('keeps inner spaces and visible characters as they are', () => {
    expect(cleanId(' a b/é 中 ').id).toBe('a b/é 中');
  });

  it('lists three kinds with commas and "and"', () => {
    expect(describeRemoved(cleanId('\u200b\u00a0x\ufeff').removed)).toBe('1 zero-width space, 1 no-break space and 1 byte order mark');
  });
});

describe('looksLikeRecordId', () => {
  it.each([
    ['65f1c2a9e4b0d3a1f0c9b801', true],
    ['65F1C2A9E4B0D3A1F0C9B801', true],
    ['65f1c2a9e4b0d3a1f0c9b80', false],
    ['65f1c2a9e4b0d3a1f0c9b8011', false],
    ['65f1c2a9e4b0d3a1f0c9b80g', false],
    ['cust_000482', false],
  ])('%j -> %s', (id, expected) => expect(looksLikeRecordId(id)).toBe(expected));
});

describe('unwrapId', () => {
  it.each([
    ['/cust_000482', 'cust_000482', 'the leading "/"'],
    ['"cust_000482"', 'cust_000482', 'the quotes around it'],
    ["'cust_000482'", 'cust_000482', 'the quotes around it'],
    ['\u201ccust_000482\u201d', 'cust_000482', 'the quotes around it'],
    ['`65f1c2a9e4b0d3a1f0c9b810`', '65f1c2a9e4b0d3a1f0c9b810', 'the quotes around it'],
    ['/"cust_000482"', 'cust_000482', 'the leading "/" and the quotes around it'],
    ['cust_000482', 'cust_000482', undefined],
    ['/', '/', undefined],
    ['"a', '"a', undefined],
    ["it's", "it's", undefined],
    ['""', '""', undefined],
  ])('%j -> %j (%s)', (typed, id, dropped) => expect(unwrapId(typed)).toEqual({ id, dropped }));
});

describe('guessKind', () => {
  it('reads 24 hexadecimal characters as a recordId and anything else as a refId', () => {
    expect(guessKind('65f1c2a9e4b0d3a1f0c9b810')).toBe('recordId');
    expect(guessKind('65F1C2A9E4B0D3A1F0C9B810')).toBe('recordId');
    for (const id of ['cust_000482', '65f1c2a9e4b0d3a1f0c9b81', '65f1c2a9e4b0d3a1f0c9b8100', 'g5f1c2a9e4b0d3a1f0c9b810', ''])
      expect(guessKind(id), id).toBe('refId');
  });
});

describe('splitIdList', () => {
  it.each([
    ['a\nb\nc', ['a', 'b', 'c']],
    ['a\r\nb\r\n', ['a', 'b']],
    ['a, b,c', ['a', 'b', 'c']],
    ['a\tb', ['a', 'b']],
    ['a b  c', ['a', 'b', 'c']],
    ['a;b', ['a', 'b']],
    ['a\u00a0b', ['a', 'b']],
    ['\u200ba\u200b\nb', ['a', 'b']],
  ])('splits %j', (text, ids) => expect(splitIdList(text).ids).toEqual(ids));

  it.each([
    ['Wang Xiuying\nKwame Mensah', ['Wang Xiuying', 'Kwame Mensah']],
    ['a, b\r\nc;d\n', ['a, b', 'c;d']],
    ['  spaced id  \n\n second ', ['spaced id', 'second']],
    ['one\rtwo', ['one', 'two']],
  ])('reads text with line breaks as one id per line, spaces inside a line kept: %j', (text, ids) => {
    expect(splitIdList(text)).toMatchObject({ ids, rule: 'lines' });
  });

  it("drops a sentence's marks around each line by splitMarks, the paste's rule, and counts them; a link's and an id's own bracket stay", () => {
    expect(splitIdList('support-ticket-4410,\n"cust_1",\ncust_2.\n#user-7781\nacme(1)\n,')).toMatchObject({
      ids: ['support-ticket-4410', 'cust_1', 'cust_2', 'user-7781', 'acme(1)', ','],
      unmarked: 4,
      unquoted: 0,
    });
    // A single line split at its commas: the full stop after its last id goes too.
    expect(splitIdList('cust_1, cust_2.')).toMatchObject({ ids: ['cust_1', 'cust_2'], unmarked: 1 });
    // Quotes alone are the search box's unwrapping, counted as before.
    expect(splitIdList('"cust_1"\ncust_2')).toMatchObject({ ids: ['cust_1', 'cust_2'], unquoted: 1, unmarked: 0 });
    // A line with spaces is not a run of a sentence: a name's full stop stays (it is asked about as a name, not found as an id).
    expect(splitIdList("cust_1\nSean O'Brien Jr.\ncust_2")).toMatchObject({ ids: ['cust_1', "Sean O'Brien Jr.", 'cust_2'], unmarked: 0 });
  });

  it('splits only a single line: at its commas and semicolons where it has them, else at tabs and spaces, and says so', () => {
    expect(splitIdList('a b\tc')).toMatchObject({ ids: ['a', 'b', 'c'], rule: 'separators' });
    expect(splitIdList('a;b, c')).toMatchObject({ ids: ['a', 'b', 'c'], rule: 'commas' });
    // A CSV row's entries keep their spaces: a name among ids is one entry, asked about as a name (it was two "ids").
    expect(splitIdList('user-7781, Mehmet Yılmaz, cust_000482')).toMatchObject({ ids: ['user-7781', 'Mehmet Yılmaz', 'cust_000482'] });
    expect(splitIdList('a b\n').rule).toBe('lines');
  });

  it("reads a link to this app's candidate page as its id, when told how, and counts it apart from the service's dashboard links", () => {
    const read = (text: string) => parseAppLink(text)?.id;
    const text = 'http://127.0.0.1:7601/candidates/refId/hu-2026-0117\ncrm-55102\n/e/staging/candidates/recordId/65f1c2a9e4b0d3a1f0c9b810';
    expect(splitIdList(text, read)).toMatchObject({
      ids: ['hu-2026-0117', 'crm-55102', '65f1c2a9e4b0d3a1f0c9b810'],
      appLinks: 2,
      links: 0,
    });
    // Without the reader (the lower layer knows no routes), a link stays as pasted.
    expect(splitIdList(text).ids[0]).toBe('http://127.0.0.1:7601/candidates/refId/hu-2026-0117');
    // Any other address is not a candidate page: kept as pasted, to be refused as an id.
    expect(splitIdList('https://example.com/x\na', read)).toMatchObject({ ids: ['https://example.com/x', 'a'], appLinks: 0 });
  });

  it('reads rows copied from a spreadsheet (cells separated by tabs) as their first cells, and counts them', () => {
    expect(splitIdList('cust_000482\tWang Xiuying\ncrm-55102\tAna\t2026\nuser-7781')).toMatchObject({
      ids: ['cust_000482', 'crm-55102', 'user-7781'],
      firstCells: 2,
    });
    // A line whose first cell is empty is read as before: the whitespace around its text trimmed.
    expect(splitIdList('\tcust_000482\na').firstCells).toBe(0);
    // A single line is split at tabs as at spaces, as before.
    expect(splitIdList('a\tb')).toMatchObject({ ids: ['a', 'b'], firstCells: 0, rule: 'separators' });
  });

  it('keeps the first of repeated ids, in input order, and counts the repeats', () => {
    expect(splitIdList('b\na\nb\nc\na')).toMatchObject({ ids: ['b', 'a', 'c'], duplicates: 2, links: 0, removed: [], rule: 'lines' });
  });

  it('numbers every entry as the pasted lines, blank lines counted, and marks a repeat with the line it repeats', () => {
    expect(splitIdList('b\n\na\nb\n \nc\na\n').entries).toEqual([
      { line: 1, id: 'b' },
      { line: 3, id: 'a' },
      { line: 4, id: 'b', repeatOf: 1 },
      { line: 6, id: 'c' },
      { line: 7, id: 'a', repeatOf: 3 },
    ]);
    // A single line split at separators: each entry's place among the entries.
    expect(splitIdList('x  y\tx').entries).toEqual([
      { line: 1, id: 'x' },
      { line: 2, id: 'y' },
      { line: 3, id: 'x', repeatOf: 1 },
    ]);
  });

  it('gives the entries back as text with each id on its own line, so that a batch of it numbers them the same', () => {
    const line = fc.oneof(fc.constantFrom('a', 'b', 'c', ' ', ''), fc.stringMatching(/^[a-z0-9_-]{1,6}$/));
    fc.assert(
      fc.property(fc.array(line, { minLength: 2, maxLength: 12 }), (lines) => {
        const list = splitIdList(lines.join('\n'));
        expect(splitIdList(entriesText(list.entries)).entries).toEqual(list.entries);
      }),
    );
  });

  it('reports invisible characters removed from the ids', () => {
    expect(splitIdList('x\u200b\ny\u200b').removed).toEqual([{ label: 'zero-width space', count: 2 }]);
  });

  it('reads a dashboard link in a list as the recordId it opens, as the search box does, and counts it', () => {
    const link = 'https://kyc.example.com/kyc/dashboard/index.html#/acme_client/kyc_detail/65f1c2a9e4b0d3a1f0c9b810';
    expect(splitIdList(`cust_000482\n${link}\n65f1c2a9e4b0d3a1f0c9b810`)).toMatchObject({
      ids: ['cust_000482', '65f1c2a9e4b0d3a1f0c9b810'],
      links: 1,
      duplicates: 1,
    });
    // A link that names no candidate stays as pasted: the batch says why it is not an id.
    const broken = 'https://kyc.example.com/kyc/dashboard/#/acme_client/kyc_detail/';
    expect(splitIdList(`a\n${broken}`)).toMatchObject({ ids: ['a', broken], links: 0 });
  });

  it('drops the quotes around an id in a list, as the search box does, and counts them: a CSV row, a quoted column', () => {
    expect(splitIdList('"crm-55102","cust_000482",user-7781')).toMatchObject({
      ids: ['crm-55102', 'cust_000482', 'user-7781'],
      unquoted: 2,
    });
    // A quote with no pair is no quoting: a sentence's opening mark (splitMarks), dropped as such.
    expect(splitIdList('“crm-55102”\n«cust_000482»\n"a"b')).toMatchObject({ ids: ['crm-55102', 'cust_000482', 'a"b'], unquoted: 2 });
    // Quotes are dropped before a repeat is counted: the same id, looked up once.
    expect(splitIdList('"crm-55102"\ncrm-55102')).toMatchObject({ ids: ['crm-55102'], duplicates: 1, unquoted: 1 });
  });

  it('a paste is a list from two ids on', () => {
    expect(interpretPaste('one').type).toBe('id');
    expect(interpretPaste(' one \n').type).toBe('id');
    expect(interpretPaste('one\ntwo').type).toBe('list');
    // An id after its label, as a customer's mail gives it: one id, not a list of the label's words (offered as a batch before).
    expect(interpretPaste('Reference ID: cust_000482')).toEqual({ type: 'id', id: 'cust_000482', removed: 'the label "Reference ID:"' });
    expect(interpretPaste('refId: cust_000482 ')).toMatchObject({ type: 'id', id: 'cust_000482' });
    expect(interpretPaste('Reference ID: cust_000482.')).toMatchObject({ type: 'id', id: 'cust_000482' });
    expect(interpretPaste('Link: https://h/candidates/refId/cust_000482')).toMatchObject({ type: 'link', link: { id: 'cust_000482' } });
    expect(interpretPaste('cust_1: cust_2').type).toBe('list');
    expect(interpretPaste('refId\ncust_000482')).toEqual({ type: 'id', id: 'cust_000482', removed: 'the column\'s heading "refId"' });
  });

  it('leaves out a column copied with its heading (it was looked up as an id, "Not found"), and only a first line', () => {
    expect(splitIdList('refId\tname\ncust_1\tAna\ncust_2\tBen')).toMatchObject({ ids: ['cust_1', 'cust_2'], heading: 'refId' });
    expect(splitIdList('Record ID\n65f1c2a9e4b0d3a1f0c9b801\n65f1c2a9e4b0d3a1f0c9b802')).toMatchObject({ heading: 'Record ID' });
    expect(splitIdList('cust_1\nrefId').ids).toEqual(['cust_1', 'refId']);
    expect(splitIdList('refId,cust_1').ids).toEqual(['refId', 'cust_1']);
    expect(interpretPaste('one,two').type).toBe('list');
  });

  it('leaves out a first line of words naming an id column over ids without spaces (it was looked up as an id: UX review)', () => {
    expect(splitIdList('Customer ref\ncust_000482\ncust_000483')).toMatchObject({
      ids: ['cust_000482', 'cust_000483'],
      entries: [
        { line: 2, id: 'cust_000482' },
        { line: 3, id: 'cust_000483' },
      ],
      heading: 'Customer ref',
      headingLine: 1,
    });
    expect(splitIdList('\nTicket reference (CRM)\tStatus\ncrm-55102\tApproved\nuser-7781\tWaiting')).toMatchObject({
      ids: ['crm-55102', 'user-7781'],
      heading: 'Ticket reference (CRM)',
      headingLine: 2,
    });
    const pasted = interpretPaste('Customer ref\ncust_000482\ncust_000483');
    expect(pasted.type === 'list' && pasted.list).toMatchObject({ ids: ['cust_000482', 'cust_000483'], heading: 'Customer ref' });
    // Known names without a space too, whatever the case.
    for (const name of ['CustomerRef', 'customer_id', 'Client ID', 'reference', 'REFID', 'candidateId'])
      expect(splitIdList(`${name}\ncust_1\ncust_2`).heading, name).toBe(name);
    // An id may hold spaces: a first line like the lines under it, or with a digit, or alone, or naming no id column, is an id.
    expect(splitIdList('Wang Xiuying\nLi Na\ncust_3').heading).toBeUndefined();
    expect(splitIdList('Wang Xiuying\ncust_1\ncust_2').ids).toEqual(['Wang Xiuying', 'cust_1', 'cust_2']);
    expect(splitIdList('spaced id\nsecond').ids).toEqual(['spaced id', 'second']);
    expect(splitIdList('order 2024\ncust_1').heading).toBeUndefined();
    expect(splitIdList('Wang Xiuying\n\n').heading).toBeUndefined();
    expect(splitIdList('Customer ref cust_1').heading).toBeUndefined();
    // Asked to keep it (the batch page's "Look it up too"), the first line is an id as any other.
    const kept = splitIdList('Customer ref\ncust_1\ncust_2', undefined, true);
    expect([kept.ids, kept.heading]).toEqual([['Customer ref', 'cust_1', 'cust_2'], undefined]);
    expect(splitIdList('refId\ncust_1', undefined, true).ids).toEqual(['refId', 'cust_1']);
  });
});

/**
 * A refId may hold a space (checkId refuses only control characters), so a first line of words is a
 * heading only when a word of it names an id column; before, any words over ids without spaces were
 * one, and a refId such as `Wang Xiuying` on the first line was left out of the batch.
 */
describe('a first line with a space: a heading, or an id', () => {
  /** Ids without spaces, each once, as a column under the first line. */
  const column = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}[-_][0-9]{1,8}$/), { minLength: 2, maxLength: 6 });
  /** A name's word, Latin, accented or Chinese, holding neither "id" nor "ref", so never the name of an id column. */
  const nameWord = fc
    .oneof(fc.stringMatching(/^[A-Za-z\u00e9\u00f8\u00fc\u0142]{1,10}$/), fc.stringMatching(/^[\u738b\u79c0\u82f1\u674e\u5a1c]{1,3}$/))
    .filter((word) => !/id|ref/i.test(word));

  it('keeps a name with a space as the first id, whatever the lines under it (it was left out as a heading)', () => {
    expect(splitIdList('Wang Xiuying\ncust_000482\ncust_000483')).toMatchObject({ ids: ['Wang Xiuying', 'cust_000482', 'cust_000483'] });
    expect(splitIdList('Wang Xiuying\ncust_000482\ncust_000483').heading).toBeUndefined();
    const pasted = interpretPaste('Wang Xiuying\ncust_000482\ncust_000483');
    expect(pasted.type === 'list' && [pasted.list.ids, pasted.list.heading]).toEqual([
      ['Wang Xiuying', 'cust_000482', 'cust_000483'],
      undefined,
    ]);
    // Words that hold "id" or "ref" without being one.
    for (const name of ['David Reid', 'Idris Elba', 'Sigrid Refsnes', 'Ride Refugio'])
      expect(splitIdList(`${name}\ncust_1\ncust_2`).ids[0], name).toBe(name);
    fc.assert(
      fc.property(fc.array(nameWord, { minLength: 2, maxLength: 3 }), column, (words, ids) => {
        const name = words.join(' ');
        const list = splitIdList([name, ...ids].join('\n'));
        expect([list.ids, list.heading]).toEqual([[name, ...ids], undefined]);
        // The search box's list too; a line of three words or more is a name there when capitalised (NAME_LINE, paste.ts).
        const pasted = interpretPaste([name, ...ids].join('\n'));
        if (words.length === 2) expect(pasted.type === 'list' && pasted.list.ids[0]).toBe(name);
      }),
    );
  });

  it('keeps a name of three or four words on its own line as an id in the search box (it was read as a sentence and left out, unsaid)', () => {
    for (const name of ['Maria de Souza', 'Ludwig van Beethoven', 'Ana Lucia da Silva', "Sean O'Brien Jr."]) {
      const pasted = interpretPaste(`cust_000482\n${name}\ncust_000483`);
      expect(pasted.type === 'list' && pasted.list.ids, name).toEqual(['cust_000482', name, 'cust_000483']);
    }
    // A mail's lines stay sentences: the one id in them is what the box gets (a subject in capitals too).
    expect(interpretPaste('Hi,\nmy account is cust_000482.\nThanks, Ana')).toMatchObject({ type: 'id', id: 'cust_000482' });
    for (const mail of [
      'Refund For Client\ncust-4410',
      'Customer Still Waiting\ncust-4410\nThanks',
      'Account Of Jane Doe\njane.doe@example.com',
    ])
      expect(interpretPaste(mail), mail).toMatchObject({ type: 'id' });
    expect(interpretPaste('please look at these\ncust_1\ncust_2')).toMatchObject({ type: 'list', list: { ids: ['cust_1', 'cust_2'] } });
    const capital = fc.stringMatching(/^[A-Z\u00c9\u0141][a-z\u00e9\u00f8\u00fc\u0142]{1,9}$/).filter((word) => !/id|ref/i.test(word));
    fc.assert(
      fc.property(fc.array(capital, { minLength: 3, maxLength: 4 }), column, fc.nat(6), (words, ids, at) => {
        const name = words.join(' ');
        const lines = [...ids];
        lines.splice(at % (ids.length + 1), 0, name);
        const pasted = interpretPaste(lines.join('\n'));
        expect(pasted.type === 'list' && pasted.list.ids).toEqual(lines);
      }),
    );
  });

  it('leaves out words naming an id column as the heading, wherever the name stands among them', () => {
    for (const heading of [
      'Customer ref',
      'Customer refs',
      'Reference ID',
      'Candidate refId',
      'Client ID',
      'Ticket reference (CRM)',
      'ref id (old)',
    ])
      expect(splitIdList(`${heading}\ncust_1\ncust_2`), heading).toMatchObject({ ids: ['cust_1', 'cust_2'], heading, headingLine: 1 });
    const idName = fc.constantFrom(
      'ref',
      'Ref',
      'REF',
      'reference',
      'Reference',
      'id',
      'ID',
      'Id',
      'refId',
      'RefID',
      'recordId',
      'customer_id',
      'CustomerRef',
      'client-id',
    );
    const otherWord = fc.stringMatching(/^[A-Za-z\u00e9]{1,10}$/);
    fc.assert(
      fc.property(
        fc.array(otherWord, { minLength: 1, maxLength: 3 }),
        idName,
        fc.nat(),
        fc.constantFrom('', ' (CRM)'),
        column,
        (others, named, at, suffix, ids) => {
          const words = [...others];
          words.splice(at % (others.length + 1), 0, named);
          const heading = words.join(' ') + suffix;
          const text = [heading, ...ids].join('\n');
          expect(splitIdList(text)).toMatchObject({ ids, heading, headingLine: 1 });
          // "Look it up too": asked to keep it, the first line is an id as any other.
          expect(splitIdList(text, undefined, true).ids).toEqual([heading, ...ids]);
        },
      ),
    );
  });

  it('takes words that name no id column for an id: looked up, not left out, as a refId may be words', () => {
    expect(splitIdList('Customer number\ncust_1\ncust_2').ids).toEqual(['Customer number', 'cust_1', 'cust_2']);
  });
});

describe('givenNote: "(N given)" for the search box\'s offer and the batch page alike', () => {
  it('counts every pasted entry, repeats included, and says nothing when no id repeats', () => {
    expect(givenNote(splitIdList('a\nb\na'))).toBe(' (3 given)');
    expect(givenNote(splitIdList('a,b,a,a'))).toBe(' (4 given)');
    // A column's heading is no entry: given are the lines under it.
    expect(givenNote(splitIdList('refId\ncust_1\ncust_2\ncust_1'))).toBe(' (3 given)');
    expect(givenNote(splitIdList('a\nb'))).toBe('');
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 12 }), (lines) => {
        const list = splitIdList(lines.join('\n'));
        expect(givenNote(list)).toBe(list.duplicates > 0 ? ` (${list.entries.length} given)` : '');
      }),
    );
  });
});

describe('links of this app', () => {
  it.each([
    ['https://lookup.example.com/candidates/refId/cust_000482', { kind: 'refId', id: 'cust_000482', environment: undefined }],
    [
      'http://127.0.0.1:8080/candidates/recordId/65f1c2a9e4b0d3a1f0c9b801?x=1#y',
      { kind: 'recordId', id: '65f1c2a9e4b0d3a1f0c9b801', environment: undefined },
    ],
    ['/candidates/refId/a%2Fb%20c', { kind: 'refId', id: 'a/b c', environment: undefined }],
    ['https://h/e/prod/candidates/refId/user-7781', { kind: 'refId', id: 'user-7781', environment: 'prod' }],
    [' https://h/candidates/refId/%E5%BC%A0 ', { kind: 'refId', id: '张', environment: undefined }],
    // As a plain-text mail wraps a link, and one that ends a sentence: the whole text was looked up as a refId before.
    ['<http://127.0.0.1:7661/candidates/refId/cust_000482>', { kind: 'refId', id: 'cust_000482', environment: undefined }],
    ['https://h/candidates/refId/cust_000482.', { kind: 'refId', id: 'cust_000482', environment: undefined }],
    ['(see https://h/candidates/refId/cust_000482),', undefined],
    ['https://h/candidates/refId/cust_000482),', { kind: 'refId', id: 'cust_000482', environment: undefined }],
    // An id's own last characters stay: a balanced bracket or quote (the app leaves them unencoded in its links).
    ['https://h/candidates/refId/acme(1)', { kind: 'refId', id: 'acme(1)', environment: undefined }],
    ["https://h/candidates/refId/o'brien'", { kind: 'refId', id: "o'brien'", environment: undefined }],
    ['https://h/candidates/refId/acme(1)).', { kind: 'refId', id: 'acme(1)', environment: undefined }],
  ])('takes the id from %j', (text, link) => expect(parseAppLink(text)).toEqual(link));

  it.each([
    'cust_000482',
    'https://h/other/refId/x',
    'https://h/candidates/email/x',
    'https://h/candidates/refId/',
    'https://h/candidates/refId/%E0%A4%A',
    'ftp://h/candidates/refId/x',
  ])('finds no id in %j', (text) => expect(parseAppLink(text)).toBeUndefined());

  it('splits and joins environment paths', () => {
    expect(splitEnvironmentPath('/e/prod/candidates/refId/x')).toEqual({ environment: 'prod', path: '/candidates/refId/x' });
    expect(splitEnvironmentPath('/e/prod')).toEqual({ environment: 'prod', path: '/' });
    expect(splitEnvironmentPath('/batch')).toEqual({ environment: undefined, path: '/batch' });
    expect(environmentPath('prod', '/batch')).toBe('/e/prod/batch');
    expect(environmentPath(undefined, '/batch')).toBe('/batch');
  });
});

describe('a paste from a ticket: ids in sentences', () => {
  it.each([
    ['My reference is support-ticket-4410, please help', 'support-ticket-4410'],
    ['Customer ref: cust_000482 (submitted yesterday)', 'cust_000482'],
    ['Hi,\nmy account is cust_000482.\nThanks, Ana', 'cust_000482'],
    ['Please check #user-7781 again', 'user-7781'],
    ['The record 65f1c2a9e4b0d3a1f0c9b802 is stuck', '65f1c2a9e4b0d3a1f0c9b802'],
    ["Hi, I can't log in, my reference is support-ticket-4410", 'support-ticket-4410'],
    ['I’m stuck, ref support-ticket-4410', 'support-ticket-4410'],
    ['Customer cust_000482’s documents are blurry', 'cust_000482'],
    ['the customer paid 50 EUR, ref cust_000482', 'cust_000482'],
    ['legacy-2019-0031 was archived in 2019', 'legacy-2019-0031'],
    ['cust_000482 — please check', 'cust_000482'],
    ['Opened on 2024-01-02 about cust_000482 at 10:30', 'cust_000482'],
    ['My customer number is 12345', '12345'],
  ])('%j is the one id in it', (text, id) => {
    expect(interpretPaste(text)).toEqual({ type: 'id', id, removed: `the words around "${id}"` });
  });

  it('a sentence with several ids offers those ids, and no word of it, as a batch', () => {
    const pasted = interpretPaste('Both cust_000482 and user-7781 are waiting, please look');
    expect(pasted.type === 'list' && pasted.list.ids).toEqual(['cust_000482', 'user-7781']);
  });

  it('a link in a sentence is read as the link', () => {
    expect(interpretPaste('See https://h/candidates/refId/cust_000482 for the case')).toMatchObject({
      type: 'link',
      link: { id: 'cust_000482' },
    });
  });

  it('rows copied from a spreadsheet are read by their first cells, as before: their names and dates are no ids', () => {
    const rows = interpretPaste('refId\tname\tstatus\ncust_000482\tJohn Smith\t2024-01-02\ncrm-55102\tJane Doe\t2024-01-03');
    expect(rows.type === 'list' && rows.list.ids).toEqual(['cust_000482', 'crm-55102']);
    expect(rows.type === 'list' && rows.list.entries.map((entry) => entry.line)).toEqual([2, 3]);
    expect(rows.type === 'list' && rows.list.heading).toBe('refId');
  });

  it('lists stay lists: ids on a line, a column, all-letter refIds', () => {
    expect(interpretPaste('cust_1 cust_2 cust_3').type).toBe('list');
    expect(interpretPaste('cust_1, cust_2 and cust_3').type).toBe('list');
    expect(interpretPaste('alice\nbob\ncust_3').type).toBe('list');
    const letters = interpretPaste('alice, bob, carol');
    expect(letters.type === 'list' && letters.list.ids).toEqual(['alice', 'bob', 'carol']);
    // Words of letters on one line with spaces alone read as a name ("mehmet yilmaz"): one entry, asked about
    // before it is sent, where each word went out as a refId. All-letter refIds are a list by line or by comma.
    expect(interpretPaste('alice bob carol')).toEqual({ type: 'id', id: 'alice bob carol' });
  });

  it('property: in any sentence of plain words around one id, that id is what the box gets', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,10}$/);
    const id = fc.stringMatching(/^[a-z]{1,6}[-_][0-9]{1,8}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 6 }),
        id,
        fc.array(word, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', '.', ',', '!', '?'),
        (before, one, after, end) => {
          const text = `${before.join(' ')} ${one}${end} ${after.join(' ')}`;
          expect(interpretPaste(text)).toMatchObject({ type: 'id', id: one });
        },
      ),
    );
  });
});

describe("a sentence's marks around an id: one rule for the paste and the not-found offer", () => {
  const LEAD = ['(', '"', "'", '#', '<', '[', '{', '\u201c', '\u201e', '\u2018', '\u00ab', '\u2039'];
  const TAIL = [')', '"', "'", '>', ']', '}', '.', ',', ';', ':', '!', '?', '\u201d', '\u2019', '\u00bb', '\u203a'];
  // An id as tickets carry one: letters, a separator, digits (a plain word is never a sentence's id).
  const id = fc.stringMatching(/^[A-Za-z]{1,8}[_@-][A-Za-z0-9_-]{0,6}[0-9]$/);
  const marks = (from: string[]) => fc.array(fc.constantFrom(...from), { maxLength: 3 }).map((m) => m.join(''));

  it('gives back the id inside any marks, and the marks as they stood, in the paste and on the not-found screen alike', () => {
    fc.assert(
      fc.property(marks(LEAD), id, marks(TAIL), (lead, bare, tail) => {
        expect(splitMarks(lead + bare + tail)).toEqual({ lead, bare, tail });
        const offered = withoutMarks(lead + bare + tail);
        expect(offered?.id).toBe(lead || tail ? bare : undefined);
        if (lead || tail) {
          const pasted = interpretPaste(`My reference is ${lead}${bare}${tail} please help`);
          expect(pasted).toEqual({ type: 'id', id: bare, removed: `the words around "${bare}"` });
        }
      }),
    );
  });

  it('never loses or adds a character, and marks alone leave no id', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const { lead, bare, tail } = splitMarks(text);
        expect(lead + bare + tail).toBe(text);
      }),
    );
    expect(splitMarks('"...",')).toEqual({ lead: '"', bare: '', tail: '...",' });
    expect(withoutMarks('"...",')).toBeUndefined();
  });

  it('reads curly quotes as mail writes them, and keeps a closing bracket the id opened (code review, 29 November)', () => {
    expect(interpretPaste('My reference is \u201csupport-ticket-4410\u201d, please help')).toMatchObject({
      type: 'id',
      id: 'support-ticket-4410',
    });
    expect(interpretPaste('The id is \u2018cust_000482\u2019 thanks')).toMatchObject({ type: 'id', id: 'cust_000482' });
    expect(withoutMarks('\u201ccust_000482\u201d')).toEqual({ id: 'cust_000482', marks: 'the quotes around it' });
    expect(withoutMarks('{cust_1}')?.id).toBe('cust_1');
    expect(withoutMarks('acme(1)')).toBeUndefined();
    expect(withoutMarks('(acme(1)),')).toEqual({ id: 'acme(1)', marks: 'the brackets around it and the comma after it' });
  });
});

describe("a spreadsheet's row pasted alone into the box (UX review, 29 November)", () => {
  it('is its first cell when another cell holds words: not a batch of the words, and said so', () => {
    expect(interpretPaste('support-ticket-4410\tReview requested')).toEqual({
      type: 'id',
      id: 'support-ticket-4410',
      removed: "the row's other cells",
    });
    expect(interpretPaste('\u200bcust_000482\tWang Xiuying\tapproved\n')).toMatchObject({ type: 'id', id: 'cust_000482' });
  });

  it('a row of ids alone is still a list, and rows of a column still their first cells', () => {
    expect(interpretPaste('cust_1\tcust_2')).toMatchObject({ type: 'list', list: { ids: ['cust_1', 'cust_2'] } });
    expect(interpretPaste('cust_1\tWang Xiuying\ncust_2\tAnna Berg')).toMatchObject({ type: 'list', list: { ids: ['cust_1', 'cust_2'] } });
  });
});
