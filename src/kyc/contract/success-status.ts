/**
 * The envelope's statuses read as success: "success" as documented, in any case ("SUCCESS"), and "ok"
 * likewise. Its data is then read as the record, which cannot mislead: the record says what it is, by its
 * own status and id. Any other status (not "error", the service's error) is refused, and named: a record
 * under "pending" or "failed" may not be what the service holds. One rule for the server's answer guard
 * (envelope-start.ts), its status level and the page (schema.ts).
 */
export const SUCCESS_WORDS: readonly string[] = ['success', 'ok'];

export function isSuccessWord(status: unknown): boolean {
  return typeof status === 'string' && SUCCESS_WORDS.includes(status.toLowerCase());
}
