import { type RefObject, useEffect } from 'react';
import { saysFound } from '../../kyc/view/personal-data.ts';
import type { Asked } from './lookup-form-state.ts';
import { PersonalDataQuestion } from '../ui/personal-data-question.tsx';

/** Said of text that is not plainly an id when the check for personal data did not load (use-lookup-form.ts). */
const UNCHECKED =
  'The check for personal data did not load, and this is not plainly an id: it may be a name, an e-mail address, a phone number or a date.';

/**
 * The search box's question: loaded only when its text reads like personal data, off the first load
 * (bundle-size.test.ts). It is in the page's flow under the box, in the header as on the home page: it
 * pushes what follows down while it is asked (on the home page the recent lookups, under the header's box
 * the page). Laid over the page, as the header's once was, it hid the top of the candidate page, its name
 * and review bar, at every width (Chromium checked). It stays in the form where it was, so it is still heard
 * as an alert and its buttons still come after "Look up" in Tab order. "Don't look it up", or Escape in the
 * box or on a button, closes it: the text stays (for the id to be typed over it) and the focus goes back to
 * the box (before, only Escape or editing said no).
 */
export function PersonalDataAsked({
  id,
  what,
  field,
  onAnyway,
  onClose,
}: {
  id: string;
  /** What the text reads like or holds ("This holds a person's name and a date"), or `unchecked`. */
  what: Asked;
  /** The search box, in whose form Escape closes the question. */
  field: RefObject<HTMLInputElement | null>;
  onAnyway: () => void;
  onClose: () => void;
}) {
  useEffect(() => {
    const form = field.current?.form;
    if (!form) return;
    // On the form itself, so before the box's own Escape (React's, at the page's root), which drops the text.
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      onClose();
      field.current?.focus();
    };
    form.addEventListener('keydown', close);
    return () => form.removeEventListener('keydown', close);
  }, [field, onClose]);
  const said = what === 'unchecked' ? UNCHECKED : `This ${saysFound(what)}.`;
  const dismiss = () => {
    onClose();
    field.current?.focus();
  };
  return (
    <div data-testid="personal-data-popover">
      <PersonalDataQuestion
        id={id}
        question={`${said} Candidate Lookup finds candidates by refId or recordId only; look it up anyway?`}
        act="Look it up anyway"
        onAct={onAnyway}
        other={{ act: "Don't look it up", onAct: dismiss }}
      />
    </div>
  );
}
