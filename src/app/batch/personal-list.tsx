import { type MouseEvent, useMemo, useState } from 'react';
import type { IdEntry, IdList } from '../../kyc/view/id-list.ts';
import { findPersonalData, type PersonalData } from '../../kyc/view/personal-data.ts';
import { PersonalDataQuestion } from '../ui/personal-data-question.tsx';

/** The lines of a list that read like personal data or hold some (findPersonalData, the search box's rule), and what they hold. */
export interface PersonalLines {
  /** Each kind once, as first met. */
  kinds: PersonalData[];
  /** The pasted lines (or, in a single line, the places) of those entries, repeats too, in order. */
  lines: number[];
  /** Whether every id of the list reads so: there is nothing to look up without them. */
  every: boolean;
  /** How the list was split, for the question to say "lines" or "entries". */
  rule: IdList['rule'];
}

/**
 * The entries of a list that read like personal data (names, e-mail addresses, phone numbers, dates), or
 * undefined when none does. Each is asked about before the batch is sent, by its line number only: its
 * text is on screen in the box already, and the question is read out and may be copied into a ticket.
 */
export function personalLines(list: Pick<IdList, 'ids' | 'entries' | 'rule'>): PersonalLines | undefined {
  // The search box's rule, one for both: a line `DOB 15.06.1987` was sent unasked, where the box's text asks.
  const kinds = new Map<string, PersonalData[]>();
  for (const id of list.ids) {
    const found = findPersonalData(id);
    if (found) kinds.set(id, found.kinds);
  }
  if (kinds.size === 0) return undefined;
  return {
    kinds: [...new Set([...kinds.values()].flat())],
    lines: list.entries.filter(({ id }) => kinds.has(id)).map(({ line }) => line),
    every: kinds.size === list.ids.length,
    rule: list.rule,
  };
}

/**
 * The ids and entries a batch sends after the question's answer: all of them, or (`without`) all but those
 * that read like personal data, the rows keeping the lines they were pasted on.
 */
export function listToSend(list: Pick<IdList, 'ids' | 'entries'>, answer: PersonalAnswer | undefined): [string[], IdEntry[]] {
  if (answer !== 'without') return [list.ids, list.entries];
  const kept = (id: string) => findPersonalData(id) === undefined;
  return [list.ids.filter(kept), list.entries.filter(({ id }) => kept(id))];
}

/**
 * The list's question. `stops(answered)` at Look up all: whether the batch waits for the question (some of
 * the list reads like personal data, and the question was not answered); `ask(text)` asks about a list
 * handed over. `asked`, what those lines read like, while the question stands: it goes as soon as the text changes.
 */
export function usePersonalList(list: IdList, text: string) {
  const [askedFor, setAskedFor] = useState<string>();
  const found = useMemo(() => personalLines(list), [list]);
  const stops = (answered: boolean) => {
    const waits = found !== undefined && !answered;
    setAskedFor(waits ? text : undefined);
    return waits;
  };
  return { asked: askedFor === text ? found : undefined, ask: setAskedFor, stops };
}

/** "a", "a or b", "a, b or c" (`joint` "and": "a, b and c"). */
const either = (kinds: readonly string[], joint = 'or') =>
  kinds.length === 1 ? kinds[0]! : `${kinds.slice(0, -1).join(', ')} ${joint} ${kinds.at(-1)}`;

/** At most this many line numbers are named; past them, how many more. */
const NAMED_LINES = 10;

/** "Line 2 reads", "Lines 2, 5 and 9 read", "Lines 1, 2, … 10 and 40 more read"; "Entry 2 reads" for a single line split. */
function whichLines({ lines, rule }: PersonalLines): string {
  const noun = rule === 'lines' ? 'Line' : 'Entry';
  if (lines.length === 1) return `${noun} ${lines[0]} reads`;
  const named = lines.slice(0, NAMED_LINES).map(String);
  const more = lines.length - named.length;
  const plural = rule === 'lines' ? 'Lines' : 'Entries';
  return `${plural} ${more > 0 ? `${named.join(', ')} and ${more} more` : either(named, 'and')} read`;
}

/**
 * What the results say of the lines "Leave them out" left out of the batch: "Left out lines 2, 4 and 5 (they
 * read like personal data)." By number only, as the question named them: the text is not repeated.
 */
export function leftOutText(leftOut: Pick<PersonalLines, 'lines' | 'rule'>): string {
  return `Left out ${namedLines(leftOut)} (${leftOut.lines.length === 1 ? 'it reads' : 'they read'} like personal data).`;
}

/** "line 2", "lines 2, 4 and 5", "lines 1, 2, … 10 and 40 more"; "entries" for a single line split: by number, never their text. */
export function namedLines({ lines, rule }: Pick<PersonalLines, 'lines' | 'rule'>): string {
  if (lines.length === 1) return `${rule === 'lines' ? 'line' : 'entry'} ${lines[0]}`;
  const named = lines.slice(0, NAMED_LINES).map(String);
  const more = lines.length - named.length;
  const which = more > 0 ? `${named.join(', ')} and ${more} more` : either(named, 'and');
  return `${rule === 'lines' ? 'lines' : 'entries'} ${which}`;
}

/** The question's answer: every line anyway, or the list without the lines that read like personal data. */
export type PersonalAnswer = 'anyway' | 'without';

/**
 * Asked before such a list is sent, in place of the batch starting; it goes when the list changes (BatchPage).
 * A list of which only some lines read so is offered without them (`without`), its other rows numbered as
 * pasted. Its buttons go with it as the batch starts: the focus goes to the form's Look up all, where a
 * press of that leaves it, rather than falling to the page.
 */
export function PersonalListQuestion({ found, onAnswer }: { found: PersonalLines; onAnswer: (answer: PersonalAnswer) => void }) {
  const answered = (answer: PersonalAnswer) => (event: MouseEvent<HTMLButtonElement>) => {
    event.currentTarget.form?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    onAnswer(answer);
  };
  const what = either(found.kinds);
  const finds = 'Candidate Lookup finds candidates by refId or recordId only';
  if (found.every) {
    return (
      <PersonalDataQuestion
        question={`Everything in the list reads like ${what}, not an id. ${finds}; look them up anyway?`}
        act="Look them up anyway"
        onAct={answered('anyway')}
      />
    );
  }
  return (
    <PersonalDataQuestion
      question={`${whichLines(found)} like ${what}, not an id. ${finds}; leave ${found.lines.length === 1 ? 'it' : 'them'} out, or look up all anyway?`}
      act={found.lines.length === 1 ? 'Leave it out' : 'Leave them out'}
      onAct={answered('without')}
      other={{ act: 'Look up all anyway', onAct: answered('anyway') }}
    />
  );
}
