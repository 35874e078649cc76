import { type MouseEvent, useMemo, useState } from 'react';
import { type PersonalData, readsLikePersonalData } from '../../kyc/view/personal-data.ts';
import { PersonalDataQuestion } from '../ui/personal-data-question.tsx';

/**
 * What a list reads like when every id in it reads like personal data (names, e-mail addresses, phone
 * numbers, dates: personal-data.ts), each kind once, as first met; else undefined. A list mixing ids and
 * such lines is looked up as it was, each line a row (a name's row says so when not found, batch-table.tsx).
 */
export function personalList(ids: readonly string[]): PersonalData[] | undefined {
  const kinds = ids.map(readsLikePersonalData);
  if (kinds.length === 0 || !kinds.every((kind) => kind !== undefined)) return undefined;
  return [...new Set(kinds)];
}

/**
 * The list's question. `stops(anyway)` at Look up all: whether the batch waits for the question (the list
 * reads like personal data, and `anyway`, its answer, was not given); `ask(text)` asks about a list handed
 * over. `asked`, what the list reads like, while the question stands: it goes as soon as the text changes.
 */
export function usePersonalList(ids: readonly string[], text: string) {
  const [askedFor, setAskedFor] = useState<string>();
  const kinds = useMemo(() => personalList(ids), [ids]);
  const stops = (anyway: boolean) => {
    const waits = kinds !== undefined && !anyway;
    setAskedFor(waits ? text : undefined);
    return waits;
  };
  return { asked: askedFor === text ? kinds : undefined, ask: setAskedFor, stops };
}

/** "a", "a or b", "a, b or c". */
const either = (kinds: readonly string[]) => (kinds.length === 1 ? kinds[0]! : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`);

/**
 * Asked before such a list is sent, in place of the batch starting; it goes when the list changes (BatchPage).
 * Its button goes with it as the batch starts: the focus goes to the form's Look up all, where a press of
 * that leaves it, rather than falling to the page.
 */
export function PersonalListQuestion({ kinds, onAnyway }: { kinds: readonly PersonalData[]; onAnyway: () => void }) {
  const anyway = (event: MouseEvent<HTMLButtonElement>) => {
    event.currentTarget.form?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    onAnyway();
  };
  return (
    <PersonalDataQuestion
      question={`Everything in the list reads like ${either(kinds)}, not an id. Candidate Lookup finds candidates by refId or recordId only; look them up anyway?`}
      act="Look them up anyway"
      onAct={anyway}
    />
  );
}
