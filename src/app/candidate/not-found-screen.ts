import type { ReactNode } from 'react';
import { guessKind, type LookupKind } from '../../kyc/contract/lookup.ts';
import { readsLikeNoId } from '../../kyc/view/reads-like-no-id.ts';
import type { ApiError } from '../api/api-error.ts';
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
const NO_RECORD_ID = 'it is no recordId either: those are 24 hexadecimal characters';

/**
 * Not found: what an id from a link holds that cannot be seen, when it holds some; that neither kind has
 * it once both were tried (no button that would start the round again); else the other kind to try.
 */
export function notFoundScreen({ kind, id, bothKinds, actions }: ScreenContext): ScreenParts {
  const invisible = invisibleIn(id);
  if (invisible) {
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: `The ${kind} holds ${invisible}, which cannot be seen: the id without it is likely the one meant.`,
      action: actions.withoutInvisible,
    };
  }
  // A web address that is neither a dashboard link nor one of this app's (those are read as their ids).
  if (/^https?:\/\//i.test(id)) {
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: "This is a web address, not an id. Paste the candidate's refId or recordId, a link of the KYC service's dashboard, or a link of a candidate page of Candidate Lookup.",
    };
  }
  const marked = withoutMarks(id);
  if (marked) {
    return {
      title: `No candidate with ${kind} "${id}"`,
      body: `The ${kind} has ${marked.marks}, likely from the sentence it was copied from: the id without them is likely the one meant.`,
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
  const named = readsLikeNoId(id) ? ` ${readsLikeNoId(id)}` : '';
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
