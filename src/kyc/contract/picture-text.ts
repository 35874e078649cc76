import { base64Head, cleanBase64 } from './base64.ts';
import { sniffImageType } from './picture-type.ts';

/** Shorter than this, a value of another type is text (a name, a number), not looked at as base64. */
const MIN_PICTURE_LETTERS = 64;

/** The letters of a value isPictureText looks at: a reader may keep only these (answer-held.ts). */
export const PICTURE_TEXT_LETTERS = 256;

/**
 * Whether a value sent under another type than `base64` (`{type: "file", value: "/9j/4AAQ…"}`) holds a
 * picture or document the viewer knows (picture-type.ts sniffs its first 64 bytes only), by its first
 * PICTURE_TEXT_LETTERS letters (`head`: the value, or that much of it). Markup and unknown bytes are text.
 * The page shows such a value with the pictures (attributes.ts); the audit counts it as one (answer-held.ts).
 */
export function isPictureText(type: unknown, head: string): boolean {
  if (type === 'base64' || type === 'string') return false;
  if (head.length < MIN_PICTURE_LETTERS) return false;
  const bytes = base64Head(cleanBase64(head.slice(0, PICTURE_TEXT_LETTERS)));
  if (!bytes) return false;
  const { label } = sniffImageType(bytes);
  return label !== 'unknown' && label !== 'HTML' && label !== 'XML' && label !== 'SVG';
}
