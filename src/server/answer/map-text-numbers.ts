import { isPlainObject } from '../../kyc/contract/value-kind.ts';
import { AnswerScan } from './answer-scan.ts';
import { type Place, ValueBuilder } from './answer-value.ts';

/**
 * A map sent as text holding its JSON (`"customFields": "{\"accountNumber\": 12345678901234567890}"`), read
 * on the server as the browser reads it (map-text.ts's mapFromText, one rule), but with its numbers' text as
 * sent kept (number-text.ts): Node 20's JSON.parse gives a reviver no source text, so mapFromText here
 * read 12345678901234567890 as 12345678901234567000, and a support user's page could only say it was
 * rounded. Read by the answer's own tokenizer instead (json-tokens.ts), which hands every number on as
 * its bytes. Undefined where mapFromText's is: text that holds no JSON object (cut off, a list, plain
 * words, a byte-order mark before it, as JSON.parse refuses it), and JSON nested past the tokenizer's
 * MAX_DEPTH. The text is at most the caller's bound (MAX_CUSTOM_FIELDS_TEXT), so it is read in one go.
 * A lone surrogate in it reads as U+FFFD (the tokenizer reads UTF-8), where JSON.parse would keep it.
 */
export function mapFromTextKeepingNumbers(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{') || text.charCodeAt(0) === 0xfeff) return undefined;
  const scan = new AnswerScan();
  const whole = new WholeValue(scan.path);
  scan.add(whole);
  if (!scan.write(Buffer.from(text, 'utf8')) || !scan.end()) return undefined;
  const value = whole.value();
  return isPlainObject(value) ? value : undefined;
}

/** The one JSON value of a text, built whole, as JSON.parse builds it (a repeated member: the last), keeping its numbers' text. */
class WholeValue extends ValueBuilder {
  private built: unknown;

  constructor(path: AnswerScan['path']) {
    super(path, Number.POSITIVE_INFINITY);
  }

  value(): unknown {
    return this.built;
  }

  /** The value at the text's top: a map is an object, so its own text as a number is never needed. */
  protected outside(): Place | undefined {
    return (value) => {
      this.built = value;
    };
  }
}
