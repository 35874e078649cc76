import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { MAX_BATCH_IDS } from '../../kyc/contract/batch-limit.ts';
import { givenNote, type IdEntry, type IdList } from '../../kyc/view/id-list.ts';
import { navigate } from '../navigation.tsx';
import { BATCH_PATH, type BatchHandOver, environmentPath } from '../routes.ts';
import { Button } from '../ui/button.tsx';

/** A pasted list: offered as a batch lookup rather than pasted into the box as one id. */
export function BatchOffer({
  list,
  kind,
  environment,
  onDismiss,
  onUseOne,
}: {
  list: IdList;
  kind: LookupKind;
  environment: string | undefined;
  onDismiss: () => void;
  onUseOne: (id: string) => void;
}) {
  // More than a batch takes: said here, not first on the batch page after a press.
  const over = list.ids.length - MAX_BATCH_IDS;
  // "Look up all": the batch starts as it opens; a list too long for one is opened to be cut.
  const handOver: BatchHandOver = { batch: { kind, ids: list.ids, text: entriesText(list.entries, list), start: over <= 0 } };
  return (
    <div
      role="status"
      className="mt-2 flex flex-wrap items-center gap-3 rounded-md border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-950"
    >
      <span>
        You pasted a list of {list.ids.length} ids{givenNote(list)}
        {list.heading !== undefined && `; its heading line, "${list.heading}", is left out`}.
        {over > 0 && ` A batch takes ${MAX_BATCH_IDS} at most: ${over} must be left for another.`}
      </span>
      <Button size="sm" onClick={() => navigate(environmentPath(environment, BATCH_PATH), { state: handOver })}>
        {over > 0 ? 'Open the list in a batch' : `Look up all ${list.ids.length} in a batch`}
      </Button>
      <Button variant="quiet" onClick={() => onUseOne(list.ids[0]!)}>
        Use the first one
      </Button>
      <Button variant="quiet" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

/**
 * The entries back as text, one a line, each on its own line's number (blank lines between), so that a
 * batch numbers them as they were pasted; a column's heading on its line, for the batch to leave out and say so.
 * Here, not beside `splitIdList`, as only the offer needs it: it loads with the offer, not with the first page.
 */
export function entriesText(entries: readonly IdEntry[], list?: Pick<IdList, 'heading' | 'headingLine'>): string {
  const lines: string[] = [];
  if (list?.heading !== undefined && list.headingLine) lines[list.headingLine - 1] = list.heading;
  for (const { line, id } of entries) lines[line - 1] = id;
  return Array.from(lines, (id) => id ?? '').join('\n');
}
