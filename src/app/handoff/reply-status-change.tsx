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
 * The text in the editor was filled in for a status the candidate is no longer in: the new status has
 * a reply to offer instead, or none (then the draft is what the editor still shows, to copy or discard).
 */
export function statusChanged(shown: ShownReplies, now: ShownReplies): boolean {
  return !sameReplies(shown, now);
}

/**
 * The candidate's status changed since the reply was filled in (a live update, while the editor was open
 * or closed, or while the agent was on another page): the text stays as the agent left it, and the reply
 * for the new status is offered, not put in its place. The new status's internal notes are shown here,
 * as the editor's own note is the old text's (UX review: a draft for In review reopened after the
 * candidate was blocked, without "Do not disclose the reason"). A new status with no reply offers none:
 * the draft can be discarded instead (it was kept out of reach, Copy reply hidden with the status's reply).
 */
export function StatusChanged({
  id,
  shown,
  now,
  notes,
  edited,
  onUse,
  onDiscard,
}: {
  /** Of what the notice says (its button left out): the reply's text is described by it. */
  id: string;
  shown: ShownReplies;
  now: ShownReplies;
  notes: string[];
  /** The text holds the agent's edits; else it is the template's, as it was started again from it. */
  edited: boolean;
  onUse: () => void;
  onDiscard: () => void;
}) {
  if (!statusChanged(shown, now)) return null;
  return (
    <div role="status" className="mb-3 space-y-2 rounded-md border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-950">
      <div id={id} className="space-y-2">
        <p>
          The candidate's status changed since this reply was filled in. The text below is still{' '}
          {replyName(shown.replies[0]!, shown.status)}
          {/* "As you left it" only while it is: not once the agent has started again from the template (UX review). */}
          {edited ? ', as you left it.' : ', from its template.'}
        </p>
        {now.replies.length === 0 && <p>{statusInfo(now.status).label} has no customer reply.</p>}
        <CurrentNotes now={now} notes={notes} />
      </div>
      {now.replies.length > 0 ? (
        <Button variant="secondary" size="sm" onClick={onUse}>
          Use {replyName(now.replies[0]!, now.status)}
        </Button>
      ) : (
        <Button variant="secondary" size="sm" onClick={onDiscard}>
          Discard the {statusInfo(shown.status).label} text
        </Button>
      )}
    </div>
  );
}

function CurrentNotes({ now, notes }: { now: ShownReplies; notes: string[] }) {
  return notes.map((note) => (
    <p
      key={note}
      data-testid="reply-current-note"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 font-medium text-amber-950"
    >
      Internal note for {statusInfo(now.status).label} (not copied): {note}
    </p>
  ));
}
