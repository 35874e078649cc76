import type { RefObject } from 'react';
import { statusInfo } from '../../kyc/contract/status.ts';
import { Button } from '../ui/button.tsx';
import { AskFirst } from './ask-first.tsx';
import type { ShownReplies } from './reply-drafts.ts';
import { replyName, statusChanged } from './reply-status-change.tsx';

/**
 * The editor's Cancel and Copy. While the text is of the status before (statusChanged), Copy asks first;
 * the editor gives this a new key when the agent takes the new status's reply, so that the question is
 * asked again should the status change once more.
 *
 * Copy pressed on text written for the status before: nothing is copied until the agent says it still
 * holds (UX review: "…should be approved soon" went to the clipboard in one press after the candidate was
 * blocked). Asked rather than refused, so that their draft stays theirs to send; the focus goes to
 * "Keep editing", so that a second Enter does not copy it, and the question and the note are read out
 * with it.
 */
export function CopyButtons(props: {
  shown: ShownReplies;
  now: ShownReplies;
  notes: string[];
  /**
   * A copy under way, or waiting for a sign-in: Copy ignores presses but keeps the keyboard's focus (a
   * disabled button drops it to the page's <body>, and the agent their place when a problem is said).
   */
  busy: boolean;
  /** Nothing to copy: the text is empty. */
  disabled: boolean;
  onCopy: () => void;
  onCancel: () => void;
  /** "Keep editing" was chosen: back to the text. */
  onKeepEditing: () => void;
  /** Copy, which Ctrl+Enter in the text presses (none while the question stands in its place). */
  copyButton: RefObject<HTMLButtonElement | null>;
}) {
  const old = statusChanged(props.shown, props.now);
  return (
    <AskFirst
      place="buttons"
      testId="reply-copy-old"
      needed={old}
      question={<OldReplyQuestion shown={props.shown} now={props.now} notes={props.notes} />}
      keep="Keep editing"
      onKeep={props.onKeepEditing}
      act={
        <Button variant="secondary" onClick={props.onCopy} busy={props.busy} disabled={props.disabled}>
          Copy the {statusInfo(props.shown.status).label} text anyway
        </Button>
      }
    >
      {(ask) => (
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button ref={props.copyButton} onClick={() => (old ? ask() : props.onCopy())} busy={props.busy} disabled={props.disabled}>
            Copy
          </Button>
        </div>
      )}
    </AskFirst>
  );
}

/** A component, not text: the names are worked out only once the question is asked. */
function OldReplyQuestion({ shown, now, notes }: { shown: ShownReplies; now: ShownReplies; notes: string[] }) {
  return (
    <>
      <p className="font-medium">
        The candidate is {statusInfo(now.status).label} now, and this text is still {replyName(shown.replies[0]!, shown.status)}. Copy it as
        it is?
      </p>
      {notes.map((note) => (
        <p key={note}>
          Internal note for {statusInfo(now.status).label}: {note}
        </p>
      ))}
    </>
  );
}
