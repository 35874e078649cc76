import { formatBytes } from '../../kyc/contract/bytes.ts';
import { ApiFailure } from '../http/api-failure.ts';

/**
 * An answer of the service's over limits.maxResponseBytes, declared so or grown past it: the limit in a
 * reader's words ("20 kB", "64 MB", where it said "<1 MB"), and the next step, as the other errors say
 * theirs: the id is fine, the record is over this server's limit, and only the limit changes that. The
 * candidate page's error card and the batch's row both show this sentence.
 */
export function responseTooLarge(maxResponseBytes: number): ApiFailure {
  return new ApiFailure(
    'response_too_large',
    `The KYC service's answer is larger than the ${formatBytes(maxResponseBytes)} this server accepts (limits.maxResponseBytes). ` +
      "Nothing is wrong with the id: the candidate's record, pictures included, is over this server's limit, and asking again " +
      'gets the same answer. Tell whoever runs Candidate Lookup: they can raise limits.maxResponseBytes.',
  );
}
