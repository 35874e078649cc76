import type { ScannedBody } from './answer-scan.ts';
import { readValue, type ValueRead } from './answer-value.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { causeOfHead, notARecord, type ServiceSettings } from './not-a-record.ts';
import type { KeySearch } from './key-watch.ts';
import { StatusLevelReader } from './status-level-stream.ts';
import { TOO_DEEP } from './upstream-body.ts';

/** A support user's record read as it streams (status-level-stream.ts's reader), and what refuses it. */

const broken = (message: string) => new ApiFailure('upstream_error', message);
const FAILURES = {
  // Of a body that opened an envelope: in the full answer's words (full-answer.ts), one reading for every level.
  notJson: broken("The KYC service's answer stops being JSON after its record began, so it could not be sent."),
  incomplete: broken("The KYC service's answer ended before the record was complete."),
  tooLarge: broken('The response of the KYC service holds more in its status-level fields than a record does, so it was refused.'),
  // Deeper than the one scan holds, wherever (a custom field the level never keeps): said as the full level says it, not as "not a record".
  tooDeep: TOO_DEEP,
};

/**
 * The body read to its end through its scan, reduced as it comes (with `fields`, those custom fields too).
 * `settings`: the environment's, named by a body that is no record (not-a-record.ts).
 */
export function readStatusLevelStreamed(
  body: ScannedBody,
  maxResponseBytes: number,
  keys: KeySearch,
  fields?: readonly string[],
  settings?: ServiceSettings,
): Promise<ValueRead> {
  const failures = {
    ...FAILURES,
    // Not JSON from its first bytes, empty, a web page: what it is (not-a-record.ts), as the full answer's guard says it.
    unopened: (head: Buffer, ended: boolean) => {
      const cause = causeOfHead(head, ended);
      return cause ? notARecord(cause, settings) : undefined;
    },
  };
  return readValue(body, { maxResponseBytes, keys }, (path) => new StatusLevelReader(path, fields), failures);
}
