import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import {
  frameProblem,
  type KnownOfCandidate,
  type LoadedReplyFrame,
  MAX_FRAME_LENGTH,
  type ReplyFrame,
  refusedFields,
  saveReplyFrame,
} from './reply-frame.ts';

const FIELD =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 aria-[invalid=true]:border-red-600 focus-ring';

/** What the save said: a refusal for what a field holds names the fields (`refused`), to be marked and checked again. */
interface Said {
  text: string;
  failed: boolean;
  refused?: { greeting: boolean; signOff: boolean };
}

/**
 * The fields' text and what their save said. A refusal for what they hold is checked again at each change
 * of them: gone once the text would be kept, its words changed only when the reason changes (the same
 * words stay as they are, not taken away and said again at each key). Before, it stayed as it was,
 * whatever the agent typed, and no field was marked.
 */
function useFrameDraft(user: string, frame: LoadedReplyFrame, known: KnownOfCandidate, onSaved: (frame: ReplyFrame) => void) {
  const [draft, setDraft] = useState<ReplyFrame>({ greeting: frame.greeting, signOff: frame.signOff });
  const [said, setSaid] = useState<Said | undefined>(frame.dropped ? { text: frame.dropped, failed: true } : undefined);
  const refusal = (next: ReplyFrame): Said | undefined => {
    const problem = frameProblem(next, known, user);
    return problem ? { text: problem, failed: true, refused: refusedFields(next, known, user) } : undefined;
  };
  const change = (field: keyof ReplyFrame, text: string) => {
    const next = { ...draft, [field]: text };
    setDraft(next);
    if (said?.refused) setSaid(refusal(next));
  };
  const save = () => {
    const next = { greeting: draft.greeting.trim(), signOff: draft.signOff.trim() };
    // Refused, the fields keep what was typed: the agent changes it rather than typing it again.
    const problem = saveReplyFrame(user, next, known);
    if (problem) return setSaid(refusal(next) ?? { text: problem, failed: true });
    onSaved(next);
    setSaid({ text: 'Saved in this browser for your replies.', failed: false });
  };
  return { draft, said, change, save };
}

/**
 * The agent's greeting and sign-off, under the reply: set once, kept in this browser for their next
 * replies, and put around this one at once (where they still stand as they were put, so edits stay). A
 * field refused for what it holds is marked invalid and described by why.
 */
export function ReplyFrameFields({
  user,
  frame,
  known,
  onSaved,
}: {
  user: string;
  /** As loaded: one removed for what it held says so here, with the fields open. */
  frame: LoadedReplyFrame;
  /** The candidate shown: a greeting or sign-off that holds their details is not kept. */
  known: KnownOfCandidate;
  onSaved: (frame: ReplyFrame) => void;
}) {
  const { draft, said, change, save } = useFrameDraft(user, frame, known, onSaved);
  // Opened once to say a frame was removed; from then on the agent opens and closes it.
  const [openedForDropped] = useState(frame.dropped !== undefined);
  const ids = { greeting: useId(), signOff: useId(), said: useId() };
  const invalid = (field: keyof ReplyFrame) =>
    said?.refused?.[field] ? { 'aria-invalid': true, 'aria-describedby': ids.said } : { 'aria-invalid': undefined };
  return (
    <details
      open={openedForDropped || undefined}
      className="mt-3 rounded-md border border-slate-200 px-3 py-2 text-sm"
      data-testid="reply-frame"
    >
      <summary className="cursor-pointer font-medium text-slate-700">Your greeting and sign-off</summary>
      <p className="mt-2 text-slate-600">
        Set once, put around every reply you copy, and kept in this browser only: your own words, never a customer's details.
      </p>
      <label htmlFor={ids.greeting} className="mt-2 block font-medium text-slate-700">
        Greeting
      </label>
      <input
        id={ids.greeting}
        value={draft.greeting}
        maxLength={MAX_FRAME_LENGTH}
        placeholder="Hello,"
        onChange={(event) => change('greeting', event.target.value)}
        {...invalid('greeting')}
        className={FIELD}
      />
      <label htmlFor={ids.signOff} className="mt-2 block font-medium text-slate-700">
        Sign-off
      </label>
      <textarea
        id={ids.signOff}
        value={draft.signOff}
        maxLength={MAX_FRAME_LENGTH}
        rows={2}
        placeholder="Kind regards, the support team"
        onChange={(event) => change('signOff', event.target.value)}
        {...invalid('signOff')}
        className={`${FIELD} font-sans`}
      />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Button variant="secondary" onClick={save}>
          Save for my replies
        </Button>
        <span id={ids.said} aria-live="polite" className={said?.failed ? 'text-red-700' : 'text-slate-600'}>
          {said?.text ?? ''}
        </span>
      </div>
    </details>
  );
}
