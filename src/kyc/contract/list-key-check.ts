/**
 * What to do while the queue's list waits for a lookup to show that the environment's key keeps identity
 * data (crawler-full-key.ts, `archiving_check_unavailable`). Without a status-level key every lookup is
 * made with the full key, a support user's as much as a compliance user's (it is cut down to the status
 * level here), so any lookup of a candidate shows it: the advice is the same for every role.
 */
const STATUS_KEY = 'a status-level key (statusApiKeyEnv, or KYC_API_KEY_STATUS) for the list';
export const LIST_KEY_CHECK_ADVICE = `Open any candidate here (anyone's lookup shows it), or ask an administrator to configure ${STATUS_KEY}.`;
