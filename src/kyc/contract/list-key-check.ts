import type { Role } from './roles.ts';

/**
 * What to do while the queue's list waits for a lookup to show that the environment's key keeps identity
 * data (crawler-full-key.ts, `archiving_check_unavailable`): the one step that unblocks it is a full lookup,
 * which only compliance users and leads make. The server's message ends with the advice for them; a support
 * user, who cannot make one, is told whom to ask instead (the queue's error and its freshness line).
 */
const STATUS_KEY = 'a status-level key (statusApiKeyEnv, or KYC_API_KEY_STATUS) for the list';
export const LIST_KEY_CHECK_ADVICE = `Open any candidate as a compliance user, or ask an administrator to configure ${STATUS_KEY}.`;
const SUPPORT_ADVICE = `Ask a compliance user to open any candidate here, or an administrator to configure ${STATUS_KEY}.`;

/** The server's message as `role` is told it: a support user's advice in place of the compliance one's; any other message as it is. */
export function listKeyCheckAdvice(message: string, role: Role | undefined): string {
  if (role !== 'support' || !message.endsWith(LIST_KEY_CHECK_ADVICE)) return message;
  return `${message.slice(0, -LIST_KEY_CHECK_ADVICE.length)}${SUPPORT_ADVICE}`;
}
