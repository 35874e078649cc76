import { statusInfo } from '../../kyc/contract/status.ts';
import { Button } from '../ui/button.tsx';
import { AskFirst } from './ask-first.tsx';
import type { ShownReplies } from './reply-drafts.ts';
import { statusChanged } from './reply-status-change.tsx';

/**
 * The text below holds the agent's edits (from before, when the editor was closed without copying); the
 * template's text is a press away, once the agent has said the edits may go. The edits live in the tab's
 * memory only (reply-drafts.ts), and the line says how long: a reload loses them (UX review: "while this
 * tab is open" promised more than that).
 *
 * Asked before the edits go: they cannot be brought back (UX review: one press erased them without a
 * word). The focus goes to "Keep my edits", so that a second Enter keeps them.
 */
export function KeptEdits({
  shown,
  now,
  onRestart,
  focusText,
}: {
  shown: ShownReplies;
  now: ShownReplies;
  /** The edits go: the text is the template's again. */
  onRestart: () => void;
  focusText: () => void;
}) {
  // The text is the reply for a status the candidate has left: "the template" would read as the current
  // status's, where it refills the one the text was written for (UX review: an Incomplete template came
  // back under a Blocked candidate, with nothing said).
  const template = statusChanged(shown, now) ? `the ${statusInfo(shown.status).label} template` : 'the template';
  return (
    <AskFirst
      place="line"
      testId="reply-replace-edits"
      question={<p className="font-medium">Replace your edits with {template}? They cannot be brought back.</p>}
      keep="Keep my edits"
      onKeep={focusText}
      act={
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            onRestart();
            // The question goes with the edits: the focus goes to the template's text, not to the page's <body>.
            focusText();
          }}
        >
          Replace my edits
        </Button>
      }
    >
      {(ask) => (
        <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700" data-testid="reply-kept-edits">
          Your edits are kept until you reload or close this tab, copy the reply or sign out.
          <Button variant="secondary" size="sm" onClick={ask}>
            {statusChanged(shown, now) ? `Restore ${template}` : 'Start again from the template'}
          </Button>
        </p>
      )}
    </AskFirst>
  );
}
