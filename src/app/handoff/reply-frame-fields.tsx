import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../ui/button.tsx';
import {
  frameProblem,
  type KnownOfCandidate,
  type LoadedReplyFrame,
  MAX_FRAME_LENGTH,
  type ReplyFrame,
  refusedFields,
  sameFrame,
  saveReplyFrame,
  trimmedFrame,
} from './reply-frame.ts';

/** How long the agent pauses in the fields before what they typed is checked and a refusal said (not at each key on the way to "Hello,"). */
export const CHECK_DELAY_MS = 600;

const FIELD =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 aria-[invalid=true]:border-red-600 focus-ring';

/** What the save said: a refusal for what a field holds names the fields (`refused`), to be marked and checked again. */
interface Said {
  text: string;
  failed: boolean;
  refused?: { greeting: boolean; signOff: boolean };
}

/**
 * The fields' text and what their save, or their check, said. What is typed is checked once the agent
 * pauses (CHECK_DELAY_MS), or at once when Copy was held for it (`held`): a refusal is said in the words
 * Save says, before any Save (UX review: "Hello Zoë," showed no warning until Save). A refusal standing
 * is checked again at each change: gone once the text would be kept, its words changed only when the
 * reason changes (the same words stay as they are, not taken away and said again at each key).
 */
function useFrameDraft(props: FrameFieldsProps) {
  const { user, loaded, known } = props;
  const [draft, setDraft] = useState<ReplyFrame>({ greeting: loaded.greeting, signOff: loaded.signOff });
  const [saved, setSaved] = useState<ReplyFrame>(trimmedFrame(loaded));
  const [said, setSaid] = useState<Said | undefined>(loaded.dropped ? { text: loaded.dropped, failed: true } : undefined);
  const refusal = (next: ReplyFrame): Said | undefined => {
    const problem = frameProblem(next, known, user);
    return problem ? { text: problem, failed: true, refused: refusedFields(next, known, user) } : undefined;
  };
  const check = (next: ReplyFrame) => setSaid((now) => (now?.refused ? now : (refusal(trimmedFrame(next)) ?? now)));
  const latest = useRef(check);
  latest.current = check;
  const standing = said?.refused !== undefined;
  useEffect(() => {
    if (standing) return;
    if (props.held) return latest.current(draft);
    const timer = window.setTimeout(() => latest.current(draft), CHECK_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft, standing, props.held]);
  const change = (field: keyof ReplyFrame, text: string) => {
    const next = { ...draft, [field]: text };
    setDraft(next);
    props.onTyped(next);
    if (said?.refused) setSaid(refusal(next));
    // "Saved" spoke of the text before this change.
    else if (said && !said.failed) setSaid(undefined);
  };
  const save = () => {
    const next = trimmedFrame(draft);
    // Refused, the fields keep what was typed: the agent changes it rather than typing it again.
    const problem = saveReplyFrame(user, next, known);
    if (problem) return setSaid(refusal(next) ?? { text: problem, failed: true });
    setSaved(next);
    setSaid({ text: 'Saved in this browser for your replies.', failed: false });
  };
  // Around this reply (frameInUse let it through) but not kept for the next: said beside Save.
  const unsaved = sameFrame(trimmedFrame(draft), trimmedFrame(props.frame)) && !sameFrame(trimmedFrame(draft), saved);
  return { draft, said, unsaved, change, save };
}

interface FrameFieldsProps {
  user: string;
  /** As loaded: one removed for what it held says so here, with the fields open. */
  loaded: LoadedReplyFrame;
  /** The frame around the reply now: the one typed once the rules let it through (frameInUse), saved or not. */
  frame: ReplyFrame;
  /** The candidate shown: a greeting or sign-off that holds their details is not kept. */
  known: KnownOfCandidate;
  /** What the fields hold, at each change. */
  onTyped: (frame: ReplyFrame) => void;
  /** Copy was pressed while the fields hold a refused frame: why is said at once. */
  held: boolean;
}

/**
 * The agent's greeting and sign-off, under the reply: set once, kept in this browser for their next
 * replies, and put around this one at once (where they still stand as they were put, so edits stay). A
 * field refused for what it holds is marked invalid and described by why.
 */
export function ReplyFrameFields(props: FrameFieldsProps) {
  const { draft, said, unsaved, change, save } = useFrameDraft(props);
  // Opened once to say a frame was removed; from then on the agent opens and closes it.
  const [openedForDropped] = useState(props.loaded.dropped !== undefined);
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
        Put around this reply as you type; saved, around every reply you copy, kept in this browser only: your own words, never a customer's
        details.
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
        {unsaved && <span className="text-slate-600">In this reply only: not saved for your later replies.</span>}
        <span id={ids.said} aria-live="polite" className={said?.failed ? 'text-red-700' : 'text-slate-600'}>
          {said?.text ?? ''}
        </span>
      </div>
    </details>
  );
}
