import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { IdList } from '../../kyc/view/id-list.ts';
import type { PersonalDataFound } from '../../kyc/view/personal-data.ts';
import type { DashboardLinkRead } from './dashboard-lookup.ts';

/**
 * What the box asks about: text that reads like personal data or holds some (findPersonalData), or (`unchecked`) text that is not plainly an
 * id (isPlainId) while the rule for personal data did not load, in time or at all (use-lookup-form.ts).
 */
export type Asked = PersonalDataFound | 'unchecked';

/**
 * What the search box holds between keystrokes (use-lookup-form.ts reads its rules from it). All but the
 * text are optional: a field left out is one not set, so that a fresh box is `{ value }` alone (this file
 * is part of the first load, bundle-size.test.ts).
 */
export interface LookupFormState {
  value: string;
  /** The switch's choice of kind: it holds while typing. */
  chosen?: LookupKind | undefined;
  /** A pasted link's kind: it holds for that link only. */
  linked?: LookupKind | undefined;
  /** What is wrong with the id, shown under the box. */
  problem?: string | undefined;
  /** What a paste removed from the id, said under the box and in the lookup's note. */
  cleaned?: string | undefined;
  /** A pasted link's environment, when it names one. */
  linkEnvironment?: string | undefined;
  /** A pasted dashboard link (matched against the environments served as they are known: use-lookup-form.ts). */
  dashboard?: DashboardLinkRead | undefined;
  /** A pasted list of ids, offered for a batch. */
  list?: IdList | undefined;
  /** The text reads like personal data, not an id (or could not be checked): what it reads like, asked about under the box before any lookup. */
  asked?: Asked | undefined;
}

/** Everything that changes the box: the reviewer's own doings, each kind of paste, and a lookup asked for. */
export type LookupFormAction =
  | { type: 'typed'; text: string }
  | { type: 'cleared' }
  /** Escape: the box goes back to the id of the page shown, its kind read again (nothing chosen); on the home page, empty, as Clear leaves it. */
  | { type: 'restored'; value: string; keepChoice: boolean }
  | { type: 'kindChosen'; kind: LookupKind }
  | { type: 'listDismissed' }
  | { type: 'listIdUsed'; id: string }
  | { type: 'pastedList'; list: IdList }
  | { type: 'pastedBadLink'; problem: string }
  | { type: 'pastedDashboard'; link: DashboardLinkRead }
  | { type: 'pastedAppLink'; kind: LookupKind; id: string; environment: string | undefined }
  | { type: 'pastedId'; value: string; removed: string | undefined }
  | { type: 'refused'; problem: string }
  | { type: 'asked'; what: Asked }
  /** Escape with the question open: it goes, the text stays (a second Escape drops the text, as ever). */
  | { type: 'unasked' }
  | { type: 'submitted' };

export const initialLookupForm = (value: string): LookupFormState => ({ value });

/**
 * A paste other than a list starts over: no problem, no link's kind or environment, no dashboard link, no
 * list, nothing cleaned. (A link's kind and environment kept past the next paste looked `cust_000482` up
 * as a recordId in the link's environment.)
 */
const PASTED = {
  problem: undefined,
  linked: undefined,
  linkEnvironment: undefined,
  dashboard: undefined,
  list: undefined,
  cleaned: undefined,
  asked: undefined,
};

export function lookupFormReducer(state: LookupFormState, action: LookupFormAction): LookupFormState {
  switch (action.type) {
    // Typing drops what a paste read: its link's kind and environment, what it cleaned, its dashboard link;
    // and the question asked about the text before.
    case 'typed':
      return {
        ...state,
        value: action.text,
        linked: undefined,
        linkEnvironment: undefined,
        cleaned: undefined,
        dashboard: undefined,
        asked: undefined,
      };
    // Only the switch's choice stays.
    case 'cleared':
      return { value: '', chosen: state.chosen };
    case 'restored':
      return action.keepChoice ? { value: action.value, chosen: state.chosen } : { value: action.value };
    case 'kindChosen':
      return { ...state, chosen: action.kind, linked: undefined, dashboard: undefined };
    case 'listDismissed':
      return { ...state, list: undefined };
    case 'listIdUsed':
      return { ...state, list: undefined, value: action.id, asked: undefined };
    // The list is offered under the box, which the paste empties, as it would have replaced its text: left
    // holding the page's id, Enter looked that candidate up again, as if it were the pasted row's.
    case 'pastedList':
      return { ...state, ...PASTED, value: '', list: action.list };
    case 'pastedBadLink':
      return { ...state, ...PASTED, problem: action.problem };
    case 'pastedDashboard':
      return { ...state, ...PASTED, linked: 'recordId', value: action.link.recordId, dashboard: action.link };
    case 'pastedAppLink':
      return { ...state, ...PASTED, linked: action.kind, value: action.id, linkEnvironment: action.environment };
    case 'pastedId':
      return { ...state, ...PASTED, value: action.value, cleaned: action.removed };
    case 'refused':
      return { ...state, problem: action.problem };
    case 'asked':
      return { ...state, problem: undefined, asked: action.what };
    case 'unasked':
      return { ...state, asked: undefined };
    case 'submitted':
      return { ...state, problem: undefined, asked: undefined };
  }
}
