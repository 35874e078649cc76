/**
 * A certificate's JSON as read, once or, for one encoded twice, once more. The contract's certificate is
 * text holding a JSON document; a service that stringified the document once too often sends text holding
 * JSON text of it (`"\"{\\\"Claim\\\":…}\""`), whose JSON read once is only a string: read as such, it
 * stated no result ("result not recognised"), with nothing said of why and no raw text shown. Read once
 * more it is the document, shown as such and said to have come so. Only once more: text still found after
 * that, or text that does not read as JSON, is no document, and the certificate is shown as its raw text
 * with a notice. One rule for the page's panel (certificate.ts) and the queue's triage (certificate-triage.ts).
 */

export type CertificateJson<T> =
  /** `encodedTwice`: the text the certificate's JSON held, which was read once more. */
  | { ok: true; read: T; encodedTwice?: string }
  /**
   * `text`: what could not be read, in which its results may still be stated (certificate-text.ts): the
   * certificate's own text, or the text it held when `encodedTwice`. `error`: the reader's, or none for
   * text held once more (`encodedTwice` and still text).
   */
  | { ok: false; text: string; encodedTwice: boolean; error?: unknown };

/** `raw` read by `read` (JSON.parse, or the page's reader keeping numbers' text), whose value `jsonOf` gives. */
export function readCertificateJson<T>(raw: string, read: (text: string) => T, jsonOf: (read: T) => unknown): CertificateJson<T> {
  let once: T;
  try {
    once = read(raw);
  } catch (error) {
    return { ok: false, text: raw, encodedTwice: false, error };
  }
  const held = jsonOf(once);
  if (typeof held !== 'string') return { ok: true, read: once };
  try {
    const twice = read(held);
    return typeof jsonOf(twice) === 'string'
      ? { ok: false, text: held, encodedTwice: true }
      : { ok: true, read: twice, encodedTwice: held };
  } catch (error) {
    return { ok: false, text: held, encodedTwice: true, error };
  }
}
