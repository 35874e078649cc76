import { BIDI_CONTROLS } from './bidi.ts';

/** A character as a visible mark, `⟦U+202E⟧`: how the page shows a control it will not let act. */
export function codePointMark(char: string): string {
  return `⟦U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`;
}

/**
 * Every character that shows nothing or acts on the text around it: controls (C0, DEL, C1: a NUL drawn
 * as a box, or not at all), format characters (the bidirectional controls, zero-width ones), lone
 * surrogates and the line and paragraph separators.
 */
const INVISIBLE = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}${BIDI_CONTROLS}]`, 'gu');

/** The text with each invisible character shown as its mark (codePointMark): what it holds can be read as it is. */
export function revealInvisibles(text: string): string {
  return text.replace(INVISIBLE, codePointMark);
}
