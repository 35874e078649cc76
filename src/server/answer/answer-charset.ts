import { StringDecoder } from 'node:string_decoder';

/**
 * The charset an answer declares (`application/json; charset=ISO-8859-1`): its strings are read in it
 * where Node's TextDecoder knows it, so that "Silvão" sent in Latin-1 is not shown as "Silv\uFFFDo". Only
 * a string's bytes over 0x7f are decoded (json-tokens.ts): the common UTF-8 answer pays for nothing here
 * but the look at its Content-Type.
 */

/** What decodes a string's bytes over 0x7f, chunk by chunk, as node:string_decoder's StringDecoder does. */
export interface TextDecoding {
  write(bytes: Buffer): string;
  end(): string;
}

/**
 * Charsets TextDecoder knows but that are not read here: UTF-8 itself, those whose JSON punctuation is not
 * ASCII bytes (UTF-16), and those in which a byte under 0x80 may be the second of a character (a `\` or
 * `"` there would be read as JSON's). Such an answer is read as UTF-8, as one that declares none.
 */
const NOT_READ = new Set(['utf-8', 'utf-16le', 'utf-16be', 'replacement', 'shift_jis', 'big5', 'gbk', 'gb18030', 'iso-2022-jp']);

/** The charset a Content-Type declares, by TextDecoder's name of it, when the answer is read in it; undefined: read as UTF-8. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  const label = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (!label) return undefined;
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
  return NOT_READ.has(encoding) ? undefined : encoding;
}

/** A decoder of a string's bytes in `charset` (TextDecoder's name), UTF-8 when none is given. */
export function textDecoding(charset: string | undefined): TextDecoding {
  if (charset === undefined) return new StringDecoder('utf8');
  const decoder = new TextDecoder(charset);
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}
