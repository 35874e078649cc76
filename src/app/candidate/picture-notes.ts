import type { ApiMeta } from '../../kyc/contract/api.ts';
import type { CandidateRecord, IdentityAttribute } from '../../kyc/contract/schema.ts';
import { picturesNamedIn } from '../../kyc/view/attributes.ts';
import { splitSummaryFields } from '../../kyc/view/summary-fields.ts';

/**
 * The pictures a note about the candidate names, for the viewer's Compare to put beside the picture
 * shown: the service's notes in the decision summary's custom fields (summaryFields in CONFIG_FILE, such
 * as "Document check flagged the national ID photo"). A reviewer pressing Compare wants the picture the
 * note is about. The hand-off's internal notes (reply templates) are not read: only support users see
 * them, and support users see no pictures, so Compare would follow a note its reviewer cannot read.
 */
export function notedPictures(
  record: CandidateRecord,
  meta: ApiMeta | undefined,
  pictures: ReadonlyArray<readonly [string, IdentityAttribute]>,
): string[] {
  const notes = splitSummaryFields(record.customFields, meta?.summaryFields).summary.flatMap(([, value]) =>
    typeof value === 'string' ? [value] : [],
  );
  return picturesNamedIn(
    notes,
    pictures.map(([name]) => name),
  );
}
