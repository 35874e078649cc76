import type { FilledReply } from '../../kyc/contract/replies.ts';
import { onVisitedCleared } from '../recent/visited.ts';

/** The edited text of each template the agent changed, by the status it was written for and the template (draftSlot). */
export type Drafts = Record<string, string>;

/** The replies the editor shows: a status's templates, filled in for it, and that status. */
export interface ShownReplies {
  status: string;
  replies: FilledReply[];
}

/** A candidate's reply drafts, and the replies (the status's templates) they were made in. */
export interface KeptDrafts {
  drafts: Drafts;
  madeFor: ShownReplies;
}

/**
 * Where a template's draft is kept: by the status it was written for too, as the general reply (`*`)
 * serves every status without its own, and text written for one status must not become another's
 * reply without a word (code review: it did, when the candidate's status changed between two of them).
 */
export function draftSlot(status: string, template: string): string {
  return JSON.stringify([status, template]);
}

/** Whether the agent edited any of these replies. */
export function holdsEdits(drafts: Drafts, shown: ShownReplies): boolean {
  return shown.replies.some((reply) => drafts[draftSlot(shown.status, reply.template)] !== undefined);
}

/** The same replies: of the same status, the same templates in the same order. */
export function sameReplies(a: ShownReplies, b: ShownReplies): boolean {
  const templates = (shown: ShownReplies) => shown.replies.map((reply) => reply.template).join(' ');
  return a.status === b.status && templates(a) === templates(b);
}

/** How many candidates' drafts the tab keeps: the oldest goes first. */
export const MAX_KEPT_DRAFTS = 20;

/**
 * The reply drafts of this tab, by environment, user and candidate: an agent who goes Back, or to another
 * candidate, and returns finds the reply as they left it (UX review: the editor said "this page", and
 * leaving it threw the draft away). In memory only, never in storage or the URL (a draft holds what the
 * candidate is told, with their ids): a reload or another tab starts without them, and they go at sign-in
 * and sign-out with the tab's other memory of candidates.
 */
const kept = new Map<string, KeptDrafts>();

/** Whose drafts: the environment's name, who is signed in, and the candidate (its recordId, else the id it was opened by). */
export function draftsKey(environment: string, user: string | undefined, candidate: string): string {
  return JSON.stringify([environment, user ?? null, candidate]);
}

export function recallDrafts(key: string): KeptDrafts | undefined {
  return kept.get(key);
}

/** Keeps the drafts as they are now (the most recent last), or forgets them when there are none. */
export function keepDrafts(key: string, drafts: Drafts, madeFor: ShownReplies): void {
  kept.delete(key);
  if (Object.keys(drafts).length === 0) return;
  kept.set(key, { drafts, madeFor });
  for (const oldest of kept.keys()) {
    if (kept.size <= MAX_KEPT_DRAFTS) break;
    kept.delete(oldest);
  }
}

export function forgetDrafts(key: string): void {
  kept.delete(key);
}

onVisitedCleared(() => {
  kept.clear();
});
