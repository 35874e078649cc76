import { useEffect } from 'react';
import type { Role } from '../../kyc/contract/api.ts';
import { BIDI_CONTROLS } from '../../kyc/contract/bidi.ts';
import { candidatePersonName } from '../../kyc/contract/candidate-name.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { readsFullRecord } from '../../kyc/contract/roles.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import { statusInfo } from '../../kyc/contract/status.ts';

export const APP_TITLE = 'Candidate Lookup';
const MAX_NAME = 60;

/** Control characters and bidirectional overrides: a record's text must not turn the tab's title around or break it. */
const UNSAFE = new RegExp(`[\\p{Cc}${BIDI_CONTROLS}]`, 'gu');

/**
 * The tab's title on a candidate page: who, the status, the app ("Ana Silva — In review — Candidate
 * Lookup"), so a reviewer with ten tabs open finds the one they want. Who is what the page's heading
 * shows the user: a compliance user's or lead's candidate by name (else refId, else recordId); a support user's
 * by refId (else recordId), never a name, since their page shows none. Titles end up in browser
 * history and window lists: docs/security.md weighs that. Before the answer, the kind only.
 */
export function candidateTitle(record: CandidateRecord | undefined, role: Role | undefined, kind: LookupKind): string {
  if (!record) return `Candidate (${kind}) — ${APP_TITLE}`;
  const name = readsFullRecord(role) ? candidatePersonName(record)?.full : undefined;
  const short = (text: string) => {
    const safe = [...text.replace(UNSAFE, '').trim()];
    return safe.length > MAX_NAME ? `${safe.slice(0, MAX_NAME - 1).join('')}…` : safe.join('');
  };
  const who = short(name ?? record.refId ?? record.recordId ?? '');
  return [who || `Candidate (${kind})`, short(statusInfo(record.status).label), APP_TITLE].join(' — ');
}

/** Keeps the title on the record shown (a live status change too); the app's name again once the page goes. */
export function useCandidateTitle(record: CandidateRecord | undefined, role: Role | undefined, kind: LookupKind): void {
  const title = candidateTitle(record, role, kind);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
    },
    [],
  );
}
