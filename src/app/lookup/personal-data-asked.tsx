import type { PersonalData } from '../../kyc/view/personal-data.ts';
import { PersonalDataQuestion } from '../ui/personal-data-question.tsx';

/** The search box's question: loaded only when its text reads like personal data, off the first load (bundle-size.test.ts). */
export function PersonalDataAsked({ id, what, onAnyway }: { id: string; what: PersonalData; onAnyway: () => void }) {
  return (
    <PersonalDataQuestion
      id={id}
      question={`This reads like ${what}. Candidate Lookup finds candidates by refId or recordId only; look it up anyway?`}
      act="Look it up anyway"
      onAct={onAnyway}
    />
  );
}
