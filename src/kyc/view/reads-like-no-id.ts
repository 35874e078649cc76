import { findPersonalData, saysFound } from './personal-data.ts';

/**
 * Why an id that was not found was likely no id at all: it reads like a person's name, an e-mail address,
 * a phone number or a date, or holds one among other words (findPersonalData, the rule the search box and the batch ask by before
 * sending), and the service finds candidates by refId or recordId only. One sentence for the batch's row
 * (batch-table.tsx) and the single lookup's not-found screen (candidate-error.tsx). Its own file: the search
 * box of the first load needs the rule but not the sentence.
 */
export function readsLikeNoId(id: string): string | undefined {
  const found = findPersonalData(id.trim());
  return found && `It ${saysFound(found)}: the KYC service finds candidates by refId or recordId only.`;
}
