import { NAME_LINE } from './id-input.ts';

/**
 * Why an id that was not found was likely no id at all: it reads like a person's name (NAME_LINE), and a
 * name is looked up as a refId like any text (a refId may hold spaces). One rule and one sentence for the
 * batch's row (batch-table.tsx) and the single lookup's not-found screen (candidate-error.tsx). Its own
 * file, not id-input.ts's: the search box of the first load needs the rule but not the sentence.
 */
export function readsLikeName(id: string): string | undefined {
  return NAME_LINE.test(id.trim())
    ? "It reads like a person's name: the KYC service finds candidates by refId or recordId only."
    : undefined;
}
