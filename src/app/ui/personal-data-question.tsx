import type { MouseEvent } from 'react';
import { Button } from './button.tsx';

/**
 * Asked before text that reads like someone's name, e-mail address, phone number or date is sent to the
 * KYC service (personal-data.ts): said, not refused, as some integrators use e-mail addresses as refIds.
 * An alert, so that it is heard where the focus stays (the box, to type the id over what was there); it
 * goes when the text changes, which is the caller's to know.
 */
export function PersonalDataQuestion({
  id,
  question,
  act,
  onAct,
  other,
}: {
  id?: string;
  question: string;
  act: string;
  onAct: (event: MouseEvent<HTMLButtonElement>) => void;
  /** A second answer, after the first (a batch's "Look up all anyway" beside "Leave them out"). */
  other?: { act: string; onAct: (event: MouseEvent<HTMLButtonElement>) => void };
}) {
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p id={id} role="alert" data-testid="personal-data-question">
        {question}
      </p>
      <Button size="sm" onClick={onAct}>
        {act}
      </Button>
      {other && (
        <Button size="sm" variant="secondary" onClick={other.onAct}>
          {other.act}
        </Button>
      )}
    </div>
  );
}
