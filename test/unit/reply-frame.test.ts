import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framed, frameKey, reframed } from '../../src/app/handoff/reply-frame.ts';

/** The agent's greeting and sign-off around a reply (issue 33): composed, changed under edits, and kept per user. */
describe('the greeting and sign-off', () => {
  it('puts them around the reply as paragraphs, leaving out the empty ones', () => {
    expect(framed('Body.', { greeting: 'Hello,', signOff: 'Kind regards,\nSam' })).toBe('Hello,\n\nBody.\n\nKind regards,\nSam');
    expect(framed('Body.', { greeting: ' ', signOff: 'Sam' })).toBe('Body.\n\nSam');
    expect(framed('Body.', { greeting: '', signOff: '' })).toBe('Body.');
  });

  it('swaps an old frame for a new one wherever it still stands, and keeps the edits between', () => {
    const old = { greeting: 'Hello,', signOff: 'Sam' };
    const next = { greeting: 'Hi,', signOff: 'Sam from Support' };
    expect(reframed('Hello,\n\nBody, edited.\n\nSam', old, next)).toBe('Hi,\n\nBody, edited.\n\nSam from Support');
    // A greeting the agent rewrote by hand stays theirs; the sign-off still changes.
    expect(reframed('Dear customer,\n\nBody.\n\nSam', old, next)).toBe('Dear customer,\n\nBody.\n\nSam from Support');
    // None before: the new ones are added.
    expect(reframed('Body.', { greeting: '', signOff: '' }, next)).toBe('Hi,\n\nBody.\n\nSam from Support');
  });

  it('gives framed(body, b) from framed(body, a) for any body and frames', () => {
    const text = fc.string({ maxLength: 30 }).map((t) => t.trim());
    const frame = fc.record({ greeting: text, signOff: text });
    const body = fc.string({ minLength: 1, maxLength: 60 }).filter((b) => b.trim() === b && b !== '');
    fc.assert(
      fc.property(body, frame, frame, (b, from, to) => {
        expect(reframed(framed(b, from), from, to)).toBe(framed(b, to));
      }),
      { numRuns: 1000 },
    );
  });

  it('keys the storage by a hash of the user, never the name itself', () => {
    expect(frameKey('sam@example.org')).toMatch(/^candidate-lookup:reply-frame:[0-9a-f]{8}$/);
    expect(frameKey('sam@example.org')).not.toContain('sam');
    expect(frameKey('sam@example.org')).not.toBe(frameKey('ana@example.org'));
  });
});
