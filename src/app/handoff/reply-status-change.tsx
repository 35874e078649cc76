import type { FilledReply } from '../../kyc/contract/replies.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { Button } from '../ui/button.tsx';
import { type ShownReplies, sameReplies } from './reply-drafts.ts';

/**
 * "the reply for In review", or "the general reply for on_hold": the general reply serves every status
 * without its own, so it names the status it was filled in for.
 */
export function replyName(reply: FilledReply, status: string): string {
  const general = reply.template.split(':')[0] === '*';
  return general ? `the general reply for ${statusInfo(status).label}` : `the reply for ${statusInfo(reply.template.split(':')[0]!).label}`;
}

/**
 * The candidate's status changed since the reply was filled in (a live update, while the editor was open
 * or closed, or while the agent was on another page): the text stays as the agent left it, and the reply
 * for the new status is offered, not put in its place.
 */
export function StatusChanged({ shown, now, onUse }: { shown: ShownReplies; now: ShownReplies; onUse: () => void }) {
  if (now.replies.length === 0 || sameReplies(shown, now)) return null;
  return (
    <div role="status" className="mb-3 space-y-2 rounded-md border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-950">
      <p>
        The candidate's status changed since this reply was filled in. The text below is still {replyName(shown.replies[0]!, shown.status)},
        as you left it.
      </p>
      <Button variant="secondary" size="sm" onClick={onUse}>
        Use {replyName(now.replies[0]!, now.status)}
      </Button>
    </div>
  );
}
