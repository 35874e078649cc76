import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

/**
 * The charset an answer declares (`application/json; charset=ISO-8859-1`): its strings are read in it
 * where Node's TextDecoder knows it, so that "Silvão" sent in Latin-1 is not shown as "Silv\uFFFDo". Only
 * a string's bytes over 0x7f are decoded (json-tokens.ts): the common UTF-8 answer pays for nothing here
 * but the look at its Content-Type. A string whose bytes are valid UTF-8 is read as UTF-8 whatever charset
 * is declared (`charset=us-ascii` or `ISO-8859-1` on a UTF-8 answer is a common mislabelling): only one
 * whose bytes are not is read in the declared charset. So such a string is held from its first byte over
 * 0x7f to its end (or HOLD_BYTES of it, then decided on what was seen).
 */

/** What decodes a string's bytes over 0x7f, chunk by chunk, as node:string_decoder's StringDecoder does. */
export interface TextDecoding {
  write(bytes: Buffer): string;
  end(): string;
  /** True while the string's text is held until its charset is decided: every run and escape goes through it. */
  readonly holding?: boolean;
  /** An escape's text, in its place among the held bytes. */
  text?(escaped: string): string;
}

/** How much of a string in a declared charset is held before its charset is decided on what was seen. */
export const HOLD_BYTES = 64 * 1024;

/**
 * Charsets TextDecoder knows but that are not read here: UTF-8 itself, those whose JSON punctuation is not
 * ASCII bytes (UTF-16), and those in which a byte under 0x80 may be the second of a character (a `\` or
 * `"` there would be read as JSON's). Such an answer is read as UTF-8, as one that declares none.
 */
const NOT_READ = new Set(['utf-8', 'utf-16le', 'utf-16be', 'replacement', 'shift_jis', 'big5', 'gbk', 'gb18030', 'iso-2022-jp']);

/** The charset a Content-Type declares, by TextDecoder's name of it, when the answer is read in it; undefined: read as UTF-8. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  const label = charsetLabel(contentType);
  if (!label) return undefined;
  let encoding: string;
  try {
    encoding = new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
  return NOT_READ.has(encoding) ? undefined : encoding;
}

/** The charset label a Content-Type declares, as sent (`ISO-8859-1`), when it is a header token; else undefined. */
export function charsetLabel(contentType: string | undefined): string | undefined {
  const label = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  return label && /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(label) ? label : undefined;
}

/** A decoder of a string's bytes in `charset` (TextDecoder's name), UTF-8 when none is given. */
export function textDecoding(charset: string | undefined): TextDecoding {
  return charset === undefined ? new StringDecoder('utf8') : new HeldDecoding(charset);
}

/** A decoder in `charset` (TextDecoder's name), streamed: Node 20's one-shot decode reads windows-1252 as ISO-8859-1. */
function streamed(charset: string): TextDecoding {
  const decoder = new TextDecoder(charset);
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
}

/** A string's bytes and escapes held until its end (or HOLD_BYTES), then read as UTF-8 if they are valid UTF-8, else in `charset`. */
class HeldDecoding implements TextDecoding {
  private held: (Buffer | string)[] = [];
  private size = 0;
  private decided: TextDecoding | undefined;

  constructor(private readonly charset: string) {}

  get holding(): boolean {
    return this.decided === undefined;
  }

  write(bytes: Buffer): string {
    if (this.decided) return this.decided.write(bytes);
    this.held.push(Buffer.from(bytes));
    this.size += bytes.length;
    return this.size > HOLD_BYTES ? this.decide() : '';
  }

  text(escaped: string): string {
    if (this.decided) return this.decided.end() + escaped;
    this.held.push(escaped);
    return '';
  }

  end(): string {
    const text = this.decided ? '' : this.decide();
    return text + this.decided!.end();
  }

  /** Decides the charset on the held bytes (each run between escapes whole) and reads them in it. */
  private decide(): string {
    const runs: Buffer[][] = [[]];
    for (const part of this.held) typeof part === 'string' ? runs.push([]) : runs[runs.length - 1]!.push(part);
    const utf8 = runs.every((run) => isUtf8(Buffer.concat(run)));
    const decoder = utf8 ? new StringDecoder('utf8') : streamed(this.charset);
    let text = '';
    for (const part of this.held) text += typeof part === 'string' ? decoder.end() + part : decoder.write(part);
    this.held = [];
    this.size = 0;
    this.decided = decoder;
    return text;
  }
}
