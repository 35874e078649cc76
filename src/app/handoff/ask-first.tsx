import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../ui/button.tsx';

/**
 * A press that would do what cannot be taken back asks first, inline, in place of the controls: the reply
 * editor's "Start again from the template" (the edits go) and its Copy of text written for the status
 * before (it goes to the clipboard as it is). `children` are the controls, given `ask`. "Keep" brings
 * them back; `act` is the caller's and does not: what was asked about goes with it (the edits, the
 * editor), and a copy refused leaves the question where the agent was, with the problem said.
 */
export function AskFirst({
  needed = true,
  onKeep,
  children,
  ...asked
}: Asked & {
  /** Asked only while this holds: Copy's question is of a status change, and the status may change back. */
  needed?: boolean;
  children: (ask: () => void) => ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking || !needed) return children(() => setAsking(true));
  return (
    <Question
      {...asked}
      onKeep={() => {
        setAsking(false);
        onKeep();
      }}
    />
  );
}

type Asked = {
  /** What it stands in place of: a line of text with a small button, or a row of buttons at the end. */
  place: 'line' | 'buttons';
  testId: string;
  /** What is asked, and what is to be read with it: the question's group is named by all of it. */
  question: ReactNode;
  /** The answer that does nothing: it has the focus, so that a second Enter does not act. */
  keep: string;
  /** After the controls are back: where the focus goes. */
  onKeep: () => void;
  /** The answer that acts, sized as `place` says (small on a line). */
  act: ReactNode;
};

function Question({ place, testId, question, keep, onKeep, act }: Asked) {
  const keepButton = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  // On mount only: the question takes the focus from the button that asked it, once.
  useEffect(() => keepButton.current?.focus(), []);
  const line = place === 'line';
  return (
    <fieldset
      aria-labelledby={questionId}
      data-testid={testId}
      className={`${line ? 'mt-2' : 'mt-4'} space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950`}
    >
      <div id={questionId} className="space-y-1">
        {question}
      </div>
      <div className={line ? 'flex flex-wrap gap-2' : 'flex flex-wrap justify-end gap-2'}>
        <Button ref={keepButton} size={line ? 'sm' : undefined} onClick={onKeep}>
          {keep}
        </Button>
        {act}
      </div>
    </fieldset>
  );
}
