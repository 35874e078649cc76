import { cleanId, describeRemoved, LABELLED } from '../../kyc/view/id-input.ts';

/**
 * A paste as the search box reads it before the paste reader (paste.ts) is here, and for good when it never
 * comes (offline): cleaned of invisible characters and outer whitespace, and the label before one id
 * dropped (with a sentence's full stop after it). Part of the first load, so only this: before, such a
 * paste stayed in the box as it came ("  refId: cust_000482"), spaces, label and all.
 */
export function pasteAtOnce(text: string): { id: string; removed: string | undefined } {
  const cleaned = cleanId(text);
  const removed = describeRemoved(cleaned.removed);
  const labelled = LABELLED.exec(cleaned.id);
  if (!labelled) return { id: cleaned.id, removed };
  const label = `the label "${labelled[1]}:"`;
  return { id: labelled[2]!.replace(/[.,;]+$/, ''), removed: removed ? `${removed} and ${label}` : label };
}
