import { SECOND_ENVELOPE, type Wrapper } from '../../kyc/contract/second-envelope.ts';
import { isSuccessWord } from '../../kyc/contract/success-status.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { envelopeStart } from './envelope-start.ts';

/**
 * Why a successful answer is not a candidate record, named from what it is (its first bytes, or the value
 * read at status level), in one set of words for every role and level: an empty body, a web page, a list
 * or a text where the record should be, another status than success, or (none of these) a body that is no
 * candidate envelope, perhaps encrypted. Never a schema's own words.
 */
export type NotARecordCause =
  | { cause: 'empty' }
  | { cause: 'web_page' }
  | { cause: 'list' }
  | { cause: 'text' }
  | { cause: 'status'; status: string | undefined }
  | { cause: 'second_envelope'; at: Wrapper }
  | { cause: 'unknown' };

const TELL = 'If it keeps happening, tell whoever runs Candidate Lookup.';

/**
 * The settings of the environment asked that an administrator checks, by the names they were given under
 * (config/environments.ts's KeySettings): `KYC_BASE_URL` and `KYC_API_KEY` in the quick start,
 * `environments[1].baseUrl` and `environments[1].apiKeyEnv (the variable STAGING_KEY)` in CONFIG_FILE mode,
 * where no KYC_* variable is set and naming one sent the administrator to a setting that is not there.
 */
export interface ServiceSettings {
  baseUrl: string;
  /** The setting of the key the request went with. */
  key: string;
}

/** Where the settings are not known (a test's target): both forms, as the redirect's words name them. */
const EITHER_BASE_URL = "KYC_BASE_URL (the environment's baseUrl in CONFIG_FILE)";
/** A status word quoted back: a short plain word, or not quoted at all (whatever answered wrote it). */
const QUOTABLE_STATUS = /^[A-Za-z0-9 _-]{1,32}$/;

/**
 * The failure of each cause, `not_a_record`: asking again gets the same answer, so none says that it usually
 * passes. `settings`: the environment's, named where the advice is to check them.
 */
export function notARecord(why: NotARecordCause, settings?: ServiceSettings): ApiFailure {
  return new ApiFailure('not_a_record', wordsOf(why, settings));
}

function wordsOf(why: NotARecordCause, settings: ServiceSettings | undefined): string {
  const baseUrl = settings?.baseUrl ?? EITHER_BASE_URL;
  const key = settings ? `the API key in ${settings.key}` : 'the API key';
  switch (why.cause) {
    case 'empty':
      return `The KYC service answered with an empty body: neither a record nor an error. ${TELL}`;
    case 'web_page':
      return (
        "The KYC service's address answered with a web page, not with a candidate record: a maintenance or sign-in page, or an address that is not the KYC Connect API. " +
        `If it lasts, an administrator must check ${baseUrl}.`
      );
    case 'list':
      return `The KYC service's answer holds a list where one candidate's record should be (its data is a list), so which entry is the candidate cannot be told: it was not read. ${TELL}`;
    case 'text':
      return (
        "The KYC service's answer holds a text where the record should be (its data is a text): it may be encrypted (KYC Connect can encrypt responses for some clients). " +
        `An administrator must check the settings of ${key} and ${baseUrl}.`
      );
    case 'status': {
      const said = why.status !== undefined && QUOTABLE_STATUS.test(why.status) ? ` "${why.status}"` : ' another';
      return `The KYC service's answer gives the status${said}, not "success", so its data was not read as a record. ${TELL}`;
    }
    case 'second_envelope':
      // The status level's words for it (status-level.ts, shapeFailure), at full level: the answer was not sent.
      return (
        "The KYC service's answer does not have the expected shape, so it was not sent. " +
        `What was wrong: ${SECOND_ENVELOPE} (at data.${why.at}) ` +
        "Asking again gets the same answer until the service's record changes: tell whoever runs Candidate Lookup."
      );
    default:
      return (
        "The KYC service's answer is not a readable candidate record. It may be encrypted (KYC Connect can encrypt responses for some clients), " +
        `or come from something other than the KYC service: an administrator must check ${baseUrl} and ${key}.`
      );
  }
}

const WS = /^(?:\xef\xbb\xbf)?[ \t\r\n]*/;

/**
 * Why a body whose first bytes (`head`, at most a few hundred) open no candidate envelope is not a record;
 * undefined when they do open one (or the service's error envelope), for the caller's own failure.
 * `ended`: the body ended with these bytes.
 */
export function causeOfHead(head: Buffer, ended: boolean): NotARecordCause | undefined {
  const text = head.toString('latin1').replace(WS, '');
  if (text === '') return ended ? { cause: 'empty' } : undefined;
  if (text.startsWith('<')) return { cause: 'web_page' };
  const opening = envelopeStart(head);
  if (opening !== 'no' && !(ended && opening === 'more')) return undefined;
  if (/^\{[\s\S]*?"data"[ \t\r\n]*:[ \t\r\n]*\[/.test(text)) return { cause: 'list' };
  if (/^\{[\s\S]*?"data"[ \t\r\n]*:[ \t\r\n]*"/.test(text)) return { cause: 'text' };
  const status = /^\{[\s\S]*?"status"[ \t\r\n]*:[ \t\r\n]*"([^"\\]{0,64})"/.exec(text);
  if (status && !isSuccessWord(status[1]) && status[1] !== 'error') return { cause: 'status', status: status[1] };
  return { cause: 'unknown' };
}

/** Why a value read whole (the status level's) whose envelope is not a record's is not one; undefined when it may be one. */
export function causeOfValue(value: unknown): NotARecordCause | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { cause: 'unknown' };
  const { status, data } = value as { status?: unknown; data?: unknown };
  if (status !== undefined && status !== 'error' && !isSuccessWord(status)) {
    return { cause: 'status', status: typeof status === 'string' ? status : undefined };
  }
  if (Array.isArray(data)) return { cause: 'list' };
  if (typeof data === 'string') return { cause: 'text' };
  // A number or true/false where the record should be: no record, nothing more to say of it.
  return data !== undefined && data !== null && typeof data !== 'object' ? { cause: 'unknown' } : undefined;
}
