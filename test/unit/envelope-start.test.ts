import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeStart, MAX_ENVELOPE_PREFIX } from '../../src/server/answer/envelope-start.ts';

/** The guard's first check (answer-guard.ts): whether a body's first bytes open a candidate envelope. */

const verdictsOfEveryStart = (text: string) => [...text].map((_, end) => envelopeStart(Buffer.from(text.slice(0, end + 1), 'latin1')));
const name = fc.stringMatching(/^[A-Za-z0-9_$-]{1,12}$/).filter((key) => key !== 'status' && key !== 'data');
const scalar = fc.oneof(
  fc.stringMatching(/^[ -!#-[\]-~]{0,20}$/),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const space = fc.constantFrom(undefined, 1, '\t');

describe('the envelope a body opens', () => {
  it('opens after up to four short scalar members, and no start of it is ever refused', () => {
    fc.assert(
      fc.property(fc.dictionary(name, scalar, { maxKeys: 4 }), fc.constantFrom('status', 'data'), space, (members, first, indent) => {
        const envelope = { ...members, [first]: first === 'status' ? 'success' : { status: 'waiting' } };
        const text = JSON.stringify(envelope, null, indent).slice(0, 256);
        const verdicts = verdictsOfEveryStart(text);
        expect(verdicts).not.toContain('no');
        expect(verdicts.at(-1)).toBe('yes');
      }),
      { numRuns: 500 },
    );
  });

  it('a record as text after the success status (an encrypted record) is not an envelope; one whose data is past the bound still is', () => {
    expect(verdictsOfEveryStart('{"status":"success","data":"U2FsdGVkX1+abc"}').at(-1)).toBe('no');
    expect(verdictsOfEveryStart('{"status":"success" ,\n "data" : 12}').at(-1)).toBe('no');
    expect(verdictsOfEveryStart('{"status":"success","data":{}}')).not.toContain('no');
    // What the bound leaves unread is not held against a success status.
    const padded = `{"status":"success"${' '.repeat(MAX_ENVELOPE_PREFIX)},"data":"text"}`;
    expect(envelopeStart(Buffer.from(padded).subarray(0, MAX_ENVELOPE_PREFIX))).toBe('yes');
    expect(envelopeStart(Buffer.from('{"status":"success",'))).toBe('more');
  });

  it('attack: an object before status (an echo of the request: headers, the key) is not an envelope, however it continues', () => {
    const body = '{"echo":{"authorization":"full-key"},"status":"success","data":{}}';
    expect(verdictsOfEveryStart(body).at(-1)).toBe('no');
  });

  it('attack: escaped member name st\\u0061tus is read as JSON reads it; a status other than success first is not an envelope', () => {
    for (const [body, verdict] of <Array<[string, string]>>[
      // Names are read decoded, as the status level's JSON.parse reads them (envelope-members.test.ts).
      ['{"st\\u0061tus":"success","data":{}}', 'yes'],
      ['{"\\u0073tatus":"\\u0065rror","code":404}', 'error'],
      ['{"d\\u0061ta":{}}', 'yes'],
      ['{"d\\u0061ta":"U2FsdGVkX1"}', 'no'],
      ['{"status":"success","d\\u0061ta":"U2FsdGVkX1"}', 'no'],
      ['{"c\\u006fde":200,"st\\u0061tus":"success"}', 'yes'],
      ['{"st\\u0061tus":"waiting","data":{}}', 'no'],
      // The service's error envelope: read as the error it states (answer-guard.ts), never as a record.
      ['{"status":"error","data":{}}', 'error'],
      ['{"code":200,"status":"error","data":{}}', 'error'],
      ['{"status":"errors","data":{}}', 'no'],
      // The status's value is read as JSON decodes it: the same string however it is spelt.
      ['{"status":"\\u0065rror","code":404}', 'error'],
      ['{"status":"\\u0073ucc\\u0065ss","data":{}}', 'yes'],
      ['{"status":"\\u0065rrors","data":{}}', 'no'],
      ['{"data":[]}', 'no'],
    ]) {
      expect([body, envelopeStart(Buffer.from(body))]).toEqual([body, verdict]);
    }
  });

  it('a name cut inside its escape is read further, never refused', () => {
    expect(verdictsOfEveryStart('{"c\\u006fde":200,"st\\u0061tus":"success","data":{}}')).not.toContain('no');
  });

  it('reads no more than four members before status or data', () => {
    const members = (count: number) => Array.from({ length: count }, (_, i) => `"m${i}":${i},`).join('');
    expect(envelopeStart(Buffer.from(`{${members(4)}"status":"success"}`))).toBe('yes');
    expect(envelopeStart(Buffer.from(`{${members(5)}"status":"success"}`))).toBe('no');
  });
});
