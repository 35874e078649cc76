import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RememberedSessions } from '../../src/server/auth/remembered-sessions.ts';

/**
 * What an instance remembers of whose a session was, for a print while the session store is down
 * (session-store.ts `recall`): a key finds its user only if the store last answered it as a valid session
 * within the window, before the session's own end, and it was not forgotten (signed out, found gone) since;
 * never a key it was not told of. Checked against a plain model over any sequence of steps.
 */
const WINDOW = 1000;
const MAX = 3;
const keys = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const step = fc.oneof(
  fc.record({
    op: fc.constant('remember' as const),
    key: keys,
    user: fc.constantFrom('ana', 'sam'),
    endsIn: fc.integer({ min: -10, max: 3000 }),
  }),
  fc.record({ op: fc.constant('forget' as const), key: keys }),
  fc.record({ op: fc.constant('recall' as const), key: keys }),
  fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 1500 }) }),
);

describe('the sessions an instance remembers', () => {
  it('gives a user back only for a key the store answered valid, within the window and the session, not forgotten since', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let now = 0;
        const remembered = new RememberedSessions<string>({ windowMs: WINDOW, max: MAX, now: () => now });
        // The model: when each key was last told, whose, until when; in the order told (the oldest first out).
        const model = new Map<string, { user: string; until: number }>();
        for (const s of steps) {
          if (s.op === 'wait') now += s.ms;
          else if (s.op === 'forget') {
            remembered.forget(s.key);
            model.delete(s.key);
          } else if (s.op === 'remember') {
            remembered.remember(s.key, s.user, now + s.endsIn);
            model.delete(s.key);
            const until = Math.min(now + WINDOW, now + s.endsIn);
            if (until > now) model.set(s.key, { user: s.user, until });
            // Over the cap, the one told longest ago goes (an expired one still counts until read).
            while (model.size > MAX) model.delete(model.keys().next().value!);
          } else {
            const entry = model.get(s.key);
            const expected = entry && now < entry.until ? entry.user : undefined;
            if (entry && expected === undefined) model.delete(s.key);
            expect(remembered.recall(s.key)).toBe(expected);
          }
        }
      }),
    );
  });

  it('never gives back a key it was not told of', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 20 }), fc.string(), (told, asked) => {
        fc.pre(!told.includes(asked));
        const remembered = new RememberedSessions<string>({ windowMs: WINDOW, max: 100, now: () => 0 });
        for (const key of told) remembered.remember(key, 'ana', WINDOW);
        expect(remembered.recall(asked)).toBeUndefined();
      }),
    );
  });
});
