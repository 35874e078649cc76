import { type RefObject, useEffect } from 'react';
import type { PersonalData } from '../../kyc/view/personal-data.ts';
import { PersonalDataQuestion } from '../ui/personal-data-question.tsx';

/**
 * The search box's question: loaded only when its text reads like personal data, off the first load
 * (bundle-size.test.ts). It opens over the page, anchored under the form, not in the page's flow: under
 * the header's box it pushed the whole page down (about 46 px) and back up when it went. It stays in the
 * form where it was, so it is still heard as an alert and its button still comes after "Look up" in Tab
 * order. Escape closes it, in the box (the text stays, for the id to be typed over it) or on its button
 * (the focus goes back to the box, as the button it was on goes).
 */
export function PersonalDataAsked({
  id,
  what,
  field,
  onAnyway,
  onClose,
}: {
  id: string;
  what: PersonalData;
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
  return (
    <div data-testid="personal-data-popover" className="absolute inset-x-0 top-full z-30">
      <PersonalDataQuestion
        id={id}
        question={`This reads like ${what}. Candidate Lookup finds candidates by refId or recordId only; look it up anyway?`}
        act="Look it up anyway"
        onAct={onAnyway}
        className="shadow-lg"
      />
    </div>
  );
}
