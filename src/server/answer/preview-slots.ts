import { FairTurns } from '../state/fair-turns.ts';

/**
 * The lookups making previews at once (parts-writer.ts) and the pictures being decoded at once
 * (preview-pool.ts): at most `slots` holders, the turns going round the lookups waiting, one picture each
 * (state/fair-turns.ts; red team: one lookup's hundred pictures, all asked for first, held another
 * lookup's one picture behind them).
 */
export { FairTurns as PreviewSlots };

/**
 * The instance's slots for the lookups making previews, each taken in the name of the person the lookup is
 * for: the turns go round the people waiting, one lookup each, and the last free slot is kept for a person
 * holding fewer than half of them (`keepLast`), so another person's lookup finds it free. Red team: one
 * user's four lookups of records of slow-to-preview pictures took all four slots, and another user's
 * previews waited their full wait (3.8 s).
 */
export function lookupSlots(count: number): FairTurns {
  return new FairTurns(count, Number.POSITIVE_INFINITY, true);
}
