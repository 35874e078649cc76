import fc from 'fast-check';

/**
 * Any code point, lone surrogates among them: what `fc.string({ unit: 'binary' })` draws, without its
 * first-use cost. fast-check maps each of the 1,114,112 code points back to its index, once per process,
 * to find the strings it likes to insert (`__proto__` and the like): 2 to 3 s of a file's time.
 */
export const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));

/** A string of any code points, as `fc.string({ unit: 'binary', maxLength })`. */
export const anyString = (maxLength: number) => fc.string({ unit: anyCodePoint, maxLength });
