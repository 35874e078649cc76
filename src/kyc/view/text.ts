import { BIDI_CONTROLS } from '../contract/bidi.ts';
import { codePointMark } from '../contract/invisible.ts';

/**
 * Text from the service is shown as text, never markup; two more things keep it honest on screen:
 * invisible bidirectional controls (which can make "exe.jpg" read as "gpj.exe") are shown as visible
 * markers, and very long values are cut, with the rest one click away.
 */
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`, 'g');

export function revealBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, codePointMark);
}

export const LONG_TEXT_LIMIT = 300;

/** The first `limit` characters (whole code points) and how many were left out. */
export function truncateText(text: string, limit = LONG_TEXT_LIMIT): { shown: string; hidden: number } {
  if (text.length <= limit) return { shown: text, hidden: 0 };
  const chars = [...text];
  if (chars.length <= limit) return { shown: text, hidden: 0 };
  return { shown: chars.slice(0, limit).join(''), hidden: chars.length - limit };
}
