import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeUnexpected } from '../../src/server/log/log.ts';

/**
 * What the log keeps of an unexpected error: its type, its code and its stack's frames, never its
 * message, which can quote anything the code that threw had in hand (an upstream body, the key).
 */
const MARK = 'SECRET-7Q';

describe('an unexpected error as the log keeps it', () => {
  it('never keeps any part of the message, whatever it holds (line breaks, lines shaped like frames)', () => {
    const frameLike = fc.constantFrom('\n    at ', ':1:2)', ' (file:///x.ts:3:4)', '\n', '(index 0)', 'at ');
    const text = fc.array(fc.oneof(fc.string(), frameLike), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.constantFrom(Error, TypeError, RangeError, SyntaxError), (middle, Kind) => {
        const described = describeUnexpected(new Kind(`${MARK}${middle}${MARK}`));
        expect(JSON.stringify(described)).not.toContain(MARK);
        expect(described.type).toBe(Kind.name);
        expect(described.stack.length).toBeGreaterThan(0);
        for (const frame of described.stack) expect(frame).toMatch(/^at /);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps no line of a message changed after the stack was taken, unless it ends like a frame', () => {
    fc.assert(
      fc.property(fc.string(), (middle) => {
        const error = new Error(`${MARK}\n    at ${MARK} (${middle}${MARK}`);
        error.message = 'something else';
        expect(JSON.stringify(describeUnexpected(error))).not.toContain(MARK);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a code of Node's shape, and nothing of a thrown value that is not an Error", () => {
    const error = Object.assign(new Error(MARK), { code: 'ERR_STREAM_DESTROYED' });
    expect(describeUnexpected(error)).toMatchObject({ type: 'Error', code: 'ERR_STREAM_DESTROYED' });
    expect(describeUnexpected(Object.assign(new Error('x'), { code: MARK })).code).toBeUndefined();
    expect(describeUnexpected(Object.assign(new Error('x'), { name: `${MARK} with spaces` })).type).toBe('Error');
    expect(describeUnexpected(MARK)).toEqual({ type: 'string', stack: [] });
    expect(describeUnexpected({ message: MARK })).toEqual({ type: 'object', stack: [] });
  });
});
