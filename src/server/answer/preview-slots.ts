/**
 * The lookups making previews at once (parts-writer.ts) and the pictures being decoded at once
 * (preview-pool.ts): at most `slots` holders, the turns going round the lookups waiting, one picture each
 * (state/fair-turns.ts; red team: one lookup's hundred pictures, all asked for first, held another
 * lookup's one picture behind them).
 */
export { FairTurns as PreviewSlots } from '../state/fair-turns.ts';
