import { cleanId, describeRemoved } from '../../kyc/view/id-input.ts';
import { marksInWords, splitMarks } from '../../kyc/view/sentence-marks.ts';

/** What an id looked up holds that is not its own, for the not-found screen to offer the id meant (candidate-error.tsx). */

/**
 * "1 zero-width space": what an id from a link holds that nobody can see (a typed or pasted one is
 * cleaned before it is looked up, id-input.ts); undefined when nothing, or nothing else, is there.
 */
export function invisibleIn(id: string): string | undefined {
  const cleaned = cleanId(id);
  return cleaned.id === '' ? undefined : describeRemoved(cleaned.removed);
}

/**
 * The id meant when the one looked up stands in a sentence's marks, as a ticket gives it
 * (`support-ticket-4410,`, `#user-7781`, `(cust_1)`): the id without them, and the marks in words.
 */
export function withoutMarks(id: string): { id: string; marks: string } | undefined {
  const { lead, bare, tail } = splitMarks(id);
  if (bare === '' || bare === id) return undefined;
  return { id: bare, marks: marksInWords(lead, tail) };
}

/**
 * A recordId in capitals (`65F1C2A9E4B0D3A1F0C9B802`, as some mail and spreadsheets change it): the
 * service writes its recordIds in lower case, so not found this way it is likely found in lower case.
 */
export function lowerCaseRecordId(id: string): string | undefined {
  return /^[0-9a-f]{24}$/i.test(id) && id !== id.toLowerCase() ? id.toLowerCase() : undefined;
}
