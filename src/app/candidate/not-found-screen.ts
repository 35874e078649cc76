import type { ReactNode } from 'react';
import { guessKind, type LookupKind } from '../../kyc/contract/lookup.ts';
import { findPersonalData } from '../../kyc/view/personal-data.ts';
import { readsLikeNoId } from '../../kyc/view/reads-like-no-id.ts';
import type { ApiError } from '../api/api-error.ts';
import { cleanId } from '../../kyc/view/id-input.ts';
import { invisibleIn, lowerCaseRecordId, withoutMarks } from './id-marks.ts';

/** The candidate page's failure screens' parts (candidate-error.tsx), and the not found screen's words. */

export const OTHER_KIND: Record<LookupKind, LookupKind> = { refId: 'recordId', recordId: 'refId' };

export type ErrorScreen = { title: string; body: ReactNode; action?: ReactNode };
/** A screen's title is its code's (error-titles.ts) unless it says otherwise. */
export type ScreenParts = Omit<ErrorScreen, 'title'> & { title?: string };

/** What the reviewer can do about a failure, built once and offered where it helps. */
export type Actions = {
  retry: ReactNode;
  signInAgain: ReactNode;
  tryOtherKind: ReactNode;
  withoutInvisible: ReactNode;
  withoutMarks: ReactNode;
  inLowerCase: ReactNode;
};

/**
 * `bothKinds`: the id was looked up as the other kind too, just before (the automatic retry, or "Try as").
 * `waitId`: the countdown's, which describes Try again while the wait holds it.
 */
export type ScreenContext = { kind: LookupKind; id: string; bothKinds: boolean; actions: Actions; waitId: string };
export type ScreenOf = (error: ApiError, context: ScreenContext) => ScreenParts;

/** An id looked up both ways and found neither: its page's words. */
const BOTH_KINDS = 'refId or recordId';
const NEITHER_KIND = 'The KYC service has no candidate with this id, as a refId or as a recordId.';

/** Why a refId not found is not offered as a recordId. */
const NO_RECORD_ID = "it isn't a recordId either: those are 24 hexadecimal characters";

/**
 * Whether the id meant, offered as a one-click lookup (the id without its invisible characters or its
 * sentence's marks), may be: not when it reads like personal data or holds some (findPersonalData, the
 * search box's rule). Before, `Maria Souza,` looked up anyway offered "Look up refId Maria Souza", which sent
 * the name again, to the address, the history and the audit file, without the box's question.
 */
export const offeredAsId = (suggested: string) => findPersonalData(suggested.trim()) === undefined;

/** "it" for one character, "them" for more: the marks around an id, as the sentence says what they were. */
const pronounOf = (id: string, bare: string) => ([...id].length - [...bare].length === 1 ? 'it' : 'them');

/**
 * Not found: what an id from a link holds that cannot be seen, when it holds some; that neither kind has
 * it once both were tried (no button that would start the round again); else the other kind to try. The id
 * meant is offered only when it is no personal data (offeredAsId).
 */
export function notFoundScreen({ kind, id, bothKinds, actions }: ScreenContext): ScreenParts {
  const invisible = invisibleIn(id);
  if (invisible) {
    const offered = offeredAsId(cleanId(id).id);
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: offered
        ? `The ${kind} holds ${invisible}, which cannot be seen: the id without it is likely the one meant.`
        : `The ${kind} holds ${invisible}, which cannot be seen. ${readsLikeNoId(cleanId(id).id)}`,
      action: offered ? actions.withoutInvisible : undefined,
    };
  }
  // A web address that is neither a dashboard link nor one of this app's (those are read as their ids).
  if (/^https?:\/\//i.test(id)) {
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: "This is a web address, not an id. Paste the candidate's refId or recordId, a link of the KYC service's dashboard, or a link of a candidate page of Candidate Lookup.",
    };
  }
  // A name in a sentence's marks (`Maria Souza,`) is said to be one below, its marks and all: no offer.
  const marked = withoutMarks(id);
  if (marked && offeredAsId(marked.id)) {
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: `The ${kind} has ${marked.marks}, likely from the sentence it was copied from: the id without ${pronounOf(id, marked.id)} is likely the one meant.`,
      action: actions.withoutMarks,
    };
  }
  // Tried both ways (guessed a recordId, then tried as a refId, or the other way round): said in the words of any id tried so.
  if (lowerCaseRecordId(id) && (kind === 'recordId' || bothKinds)) {
    return {
      title: bothKinds ? `No candidate with ${BOTH_KINDS} "${id}"` : `No candidate with recordId "${id}"`,
      body: `${bothKinds ? `${NEITHER_KIND} ` : ''}The KYC service writes recordIds in lower case, and this one has capitals (mail and spreadsheets sometimes change them): the id in lower case is likely the one meant.`,
      action: actions.inLowerCase,
    };
  }
  // A name typed or pasted for an id: said as the batch's row says it.
  const said = readsLikeNoId(id) ?? (marked && readsLikeNoId(marked.id));
  const named = said ? ` ${said}` : '';
  if (bothKinds) return { title: `No candidate with ${BOTH_KINDS} "${id}"`, body: `${NEITHER_KIND} Check the id.${named}` };
  // The other kind only where the id's form says it is that kind (guessKind, the box's guess): a name as a
  // recordId, or a 24-hex recordId as a refId, finds nobody and was sent (and audited) again for nothing.
  if (guessKind(id) === kind) {
    const why = kind === 'refId' ? NO_RECORD_ID : "a recordId's form, which a refId very rarely has";
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: `The KYC service has no candidate with this ${kind}. Check the id (${why}).${named}`,
    };
  }
  return {
    title: `No candidate with ${kind} "${id}"`,
    body: `The KYC service has no candidate with this ${kind}. Check the id, or look it up as a ${OTHER_KIND[kind]}.${named}`,
    action: actions.tryOtherKind,
  };
}
