import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import { type KnownOfCandidate, type LoadedReplyFrame, MAX_FRAME_LENGTH, type ReplyFrame, saveReplyFrame } from './reply-frame.ts';

const FIELD = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus-ring';

/**
 * The agent's greeting and sign-off, under the reply: set once, kept in this browser for their next
 * replies, and put around this one at once (where they still stand as they were put, so edits stay).
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
  const [greeting, setGreeting] = useState(frame.greeting);
  const [signOff, setSignOff] = useState(frame.signOff);
  // Opened once to say a frame was removed; from then on the agent opens and closes it.
  const [openedForDropped] = useState(frame.dropped !== undefined);
  const [said, setSaid] = useState<{ text: string; failed: boolean } | undefined>(
    frame.dropped ? { text: frame.dropped, failed: true } : undefined,
  );
  const greetingId = useId();
  const signOffId = useId();
  const save = () => {
    const next = { greeting: greeting.trim(), signOff: signOff.trim() };
    // Refused, the fields keep what was typed: the agent changes it rather than typing it again.
    const problem = saveReplyFrame(user, next, known);
    if (problem) return setSaid({ text: problem, failed: true });
    onSaved(next);
    setSaid({ text: 'Saved in this browser for your replies.', failed: false });
  };
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
      <label htmlFor={greetingId} className="mt-2 block font-medium text-slate-700">
        Greeting
      </label>
      <input
        id={greetingId}
        value={greeting}
        maxLength={MAX_FRAME_LENGTH}
        placeholder="Hello,"
        onChange={(event) => setGreeting(event.target.value)}
        className={FIELD}
      />
      <label htmlFor={signOffId} className="mt-2 block font-medium text-slate-700">
        Sign-off
      </label>
      <textarea
        id={signOffId}
        value={signOff}
        maxLength={MAX_FRAME_LENGTH}
        rows={2}
        placeholder="Kind regards, the support team"
        onChange={(event) => setSignOff(event.target.value)}
        className={`${FIELD} font-sans`}
      />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Button variant="secondary" onClick={save}>
          Save for my replies
        </Button>
        <span aria-live="polite" className={said?.failed ? 'text-red-700' : 'text-slate-600'}>
          {said?.text ?? ''}
        </span>
      </div>
    </details>
  );
}
