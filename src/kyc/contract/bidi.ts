/**
 * The invisible bidirectional controls, as character-class ranges for a RegExp: one list for every place
 * that shows, cleans or writes text from the service or a user (the search box, the page's text, the
 * tab's title, CSV cells).
 */

/** Embeddings, overrides and isolates: they reorder the text after them ("exe.jpg" read as "gpj.exe"). */
export const BIDI_REORDERING = '\\u202a-\\u202e\\u2066-\\u2069';

/** Marks (LRM, RLM, ALM): they only place the neutral characters beside them, and right-to-left text may hold them. */
export const BIDI_MARKS = '\\u200e\\u200f\\u061c';

/** Every bidirectional control, marks and reordering ones alike. */
export const BIDI_CONTROLS = `${BIDI_MARKS}${BIDI_REORDERING}`;
