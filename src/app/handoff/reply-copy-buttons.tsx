import { useEffect, useId, useRef, useState } from 'react';
import { statusInfo } from '../../kyc/contract/status.ts';
import { Button } from '../ui/button.tsx';
import type { ShownReplies } from './reply-drafts.ts';
import { replyName, statusChanged } from './reply-status-change.tsx';

/**
 * The editor's Cancel and Copy. While the text is of the status before (statusChanged), Copy asks first
 * (CopyOldReply); the editor gives this a new key when the agent takes the new status's reply, so that
 * the question is asked again should the status change once more.
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
}) {
  const [asking, setAsking] = useState(false);
  if (asking && statusChanged(props.shown, props.now)) {
    return (
      <CopyOldReply
        {...props}
        onBack={() => {
          setAsking(false);
          props.onKeepEditing();
        }}
      />
    );
  }
  return (
    <div className="mt-4 flex flex-wrap justify-end gap-2">
      <Button variant="secondary" onClick={props.onCancel}>
        Cancel
      </Button>
      <Button
        onClick={() => (statusChanged(props.shown, props.now) ? setAsking(true) : props.onCopy())}
        busy={props.busy}
        disabled={props.disabled}
      >
        Copy
      </Button>
    </div>
  );
}

/**
 * Copy pressed on text written for the status before: nothing is copied until the agent says it still
 * holds (UX review: "…should be approved soon" went to the clipboard in one press after the candidate was
 * blocked). Asked rather than refused, so that their draft stays theirs to send; the focus goes to
 * "Keep editing", so that a second Enter does not copy it, and the question and the note are read out
 * with it.
 */
function CopyOldReply(props: {
  shown: ShownReplies;
  now: ShownReplies;
  notes: string[];
  busy: boolean;
  disabled: boolean;
  onCopy: () => void;
  onBack: () => void;
}) {
  const { shown, now } = props;
  const back = useRef<HTMLButtonElement>(null);
  const question = useId();
  useEffect(() => back.current?.focus(), []);
  return (
    <fieldset
      aria-labelledby={question}
      data-testid="reply-copy-old"
      className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <div id={question} className="space-y-1">
        <p className="font-medium">
          The candidate is {statusInfo(now.status).label} now, and this text is still {replyName(shown.replies[0]!, shown.status)}. Copy it
          as it is?
        </p>
        {props.notes.map((note) => (
          <p key={note}>
            Internal note for {statusInfo(now.status).label}: {note}
          </p>
        ))}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button ref={back} onClick={props.onBack}>
          Keep editing
        </Button>
        <Button variant="secondary" onClick={props.onCopy} busy={props.busy} disabled={props.disabled}>
          Copy the {statusInfo(shown.status).label} text anyway
        </Button>
      </div>
    </fieldset>
  );
}
