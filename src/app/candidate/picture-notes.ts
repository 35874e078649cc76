import type { ApiMeta } from '../../kyc/contract/api.ts';
import { repliesFor } from '../../kyc/contract/replies.ts';
import type { CandidateRecord, IdentityAttribute } from '../../kyc/contract/schema.ts';
import { picturesNamedIn } from '../../kyc/view/attributes.ts';
import { splitSummaryFields } from '../../kyc/view/summary-fields.ts';

/**
 * The pictures a note about the candidate names, for the viewer's Compare to put beside the picture
 * shown: the service's notes (the decision summary's custom fields, summaryFields in CONFIG_FILE, such as
 * "Document check flagged the national ID photo") first, then the hand-off's internal notes for the
 * status (a reply template's note). A reviewer pressing Compare wants the picture the note is about.
 */
export function notedPictures(
  record: CandidateRecord,
  meta: ApiMeta | undefined,
  pictures: ReadonlyArray<readonly [string, IdentityAttribute]>,
): string[] {
  const service = splitSummaryFields(record.customFields, meta?.summaryFields).summary.flatMap(([, value]) =>
    typeof value === 'string' ? [value] : [],
  );
  const handOff = meta
    ? repliesFor(meta.replyTemplates, record.status, { fields: record.customFields ?? {} }).flatMap((reply) =>
        reply.note ? [reply.note] : [],
      )
    : [];
  return picturesNamedIn(
    [...service, ...handOff],
    pictures.map(([name]) => name),
  );
}
