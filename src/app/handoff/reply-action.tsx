import { useEffect, useId, useRef, useState } from 'react';
import { statusInfo } from '../../kyc/contract/status.ts';
import { Button } from '../ui/button.tsx';
import { useFlash } from '../ui/use-flash.ts';
import {
  type Drafts,
  forgetDrafts,
  holdsEdits,
  type KeptDrafts,
  keepDrafts,
  recallDrafts,
  type ShownReplies,
  sameReplies,
} from './reply-drafts.ts';
import { ReplyEditor, type ReplyEditorProps } from './reply-editor.tsx';

export interface ReplyActionProps extends ReplyEditorProps {
  /**
   * Takes the focus when Copy reply leaves the page from under it: the status has no reply, and the draft
   * for the status before, the only thing it still offered, was copied or let go.
   */
  onGone: () => void;
}

/**
 * Copy reply: the button that opens the reply editor (reply-editor.tsx), and what came of it, said beside
 * the button (for screen readers too). A status with no customer reply shows it only while the agent
 * holds a draft written for the status before, so that the draft is never kept out of reach.
 */
export function ReplyAction(props: ReplyActionProps) {
  // Its state is of one user's drafts of one candidate: another user signed in on the page (or another
  // candidate) starts it anew, so that what the previous one wrote is never shown to them (code review:
  // the drafts stayed in this state while its key named the new user).
  return <DraftsOf key={props.draftsKey} {...props} />;
}

function DraftsOf(props: ReplyActionProps) {
  const [open, setOpen] = useState(false);
  const [said, say] = useFlash<'' | 'Reply copied' | 'Draft discarded'>('', 3000);
  const now: ShownReplies = { status: props.status, replies: props.replies };
  const kept = useKeptDrafts(props.draftsKey, now);
  const noReply = props.replies.length === 0;
  // A status without a reply: what the button still offers is the draft, and it is named for it ("Open
  // your In review draft"): "Copy reply" beside "No customer reply for this status." read as a
  // contradiction (UX review).
  const draftOnly = noReply ? kept.shownWith : undefined;
  const offered = !noReply || draftOnly !== undefined || open;
  const handBack = useHandBack(props.onGone);
  const hint = useId();
  const letGo = (outcome: 'Reply copied' | 'Draft discarded') => {
    setOpen(false);
    say(outcome);
    kept.letGo();
    if (noReply) handBack();
  };
  // The live region stays while it has something to say, also once the button has gone.
  if (!offered && said === '') return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {offered && (
        <Button variant="secondary" aria-haspopup="dialog" aria-describedby={draftOnly ? hint : undefined} onClick={() => setOpen(true)}>
          {draftOnly ? `Open your ${statusInfo(draftOnly.status).label} draft` : 'Copy reply'}
        </Button>
      )}
      {draftOnly && (
        <span id={hint} className="text-sm text-slate-600">
          Kept from before the status changed to {statusInfo(props.status).label}.
        </span>
      )}
      <span aria-live="polite" className="text-sm text-slate-600">
        {said}
      </span>
      {open && (
        <ReplyEditor
          {...props}
          opened={kept.shownWith ?? now}
          drafts={kept.drafts}
          setDrafts={kept.setDrafts}
          onDiscard={() => letGo('Draft discarded')}
          onDone={(done, shownThen) => {
            // A close after the copy (the dialog's own close event) must not take "copied" back.
            if (done) return letGo('Reply copied');
            setOpen(false);
            if (shownThen && !kept.keep(shownThen) && noReply) handBack();
          }}
        />
      )}
    </span>
  );
}

/**
 * The agent's edits, by status and template (draftSlot): kept when the editor is closed without copying
 * (Cancel, Escape), and in the tab's memory (a reload loses them) when they leave the page (reply-drafts.ts), so that
 * reopening it gives back what they wrote; let go once a reply is copied, or the draft discarded.
 */
function useKeptDrafts(draftsKey: string, now: ShownReplies) {
  const [drafts, setDraftsNow] = useState<Drafts>(() => recallDrafts(draftsKey)?.drafts ?? {});
  // The replies the editor showed when it was closed on edits: a status that changed live since (or while
  // it was open, or while the agent was elsewhere) must not leave those edits out of reach, as it did when
  // the editor reopened on the new status's templates alone. Reopened on them, it says the status changed
  // and offers the new reply.
  const [shownWith, setShownWith] = useState(() => reopenOn(recallDrafts(draftsKey), now));
  const latest = useRef(drafts);
  latest.current = drafts;
  // Kept as each edit is made: a page left with the editor open (Back) closes it without a word.
  const setDrafts = (update: (drafts: Drafts) => Drafts, shown: ShownReplies) => {
    const next = update(latest.current);
    latest.current = next;
    setDraftsNow(next);
    keepDrafts(draftsKey, next, shown);
  };
  const letGo = () => {
    latest.current = {};
    setDraftsNow({});
    setShownWith(undefined);
    forgetDrafts(draftsKey);
  };
  /** Closed without copying, on the replies `shown`: answers whether they hold edits (to reopen on them). */
  const keep = (shown: ShownReplies) => {
    const edited = holdsEdits(latest.current, shown);
    setShownWith(edited ? shown : undefined);
    keepDrafts(draftsKey, latest.current, shown);
    return edited;
  };
  return { drafts, shownWith, setDrafts, letGo, keep };
}

/**
 * The replies to reopen on, from drafts kept while the agent was elsewhere: those they were made in when
 * the status has changed since (the editor says so), else the status's own, filled in as the page is now.
 */
function reopenOn(kept: KeptDrafts | undefined, now: ShownReplies): ShownReplies | undefined {
  if (!kept) return undefined;
  return holdsEdits(kept.drafts, kept.madeFor) && !sameReplies(kept.madeFor, now) ? kept.madeFor : undefined;
}

/**
 * Calls `onGone` once the editor has closed and the button has left the page: the dialog hands the focus
 * back to the button as it closes, and with the button gone it would fall to the page's <body>.
 */
function useHandBack(onGone: () => void): () => void {
  const [due, setDue] = useState(false);
  const latest = useRef(onGone);
  latest.current = onGone;
  useEffect(() => {
    if (!due) return;
    setDue(false);
    latest.current();
  }, [due]);
  return () => setDue(true);
}
