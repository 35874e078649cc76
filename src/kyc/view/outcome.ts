/**
 * What a provider's result means for the decision. The colour families a reviewer expects from
 * Sumsub- or Onfido-style applicant pages; every chip also carries an icon and the raw text, so colour
 * is never the only signal. Values outside this table are unknown: neutral, shown as received.
 */
export type OutcomeTone = 'positive' | 'caution' | 'negative' | 'neutral';

export const OUTCOME_TONES: Readonly<Record<string, Exclude<OutcomeTone, 'neutral'>>> = {
  clear: 'positive',
  no_match: 'positive',
  approved: 'positive',
  consider: 'caution',
  potential_match: 'caution',
  caution: 'caution',
  rejected: 'negative',
  match: 'negative',
  true_positive: 'negative',
  suspected: 'negative',
};

/** Matched without regard to case or surrounding spaces: providers write `Clear` and `clear` alike. */
export function outcomeTone(value: string): OutcomeTone {
  const key = value.trim().toLowerCase();
  return Object.hasOwn(OUTCOME_TONES, key) ? OUTCOME_TONES[key]! : 'neutral';
}

/** The worst of several outcomes: one red sub-result makes the whole certificate red. */
export function worstTone(tones: OutcomeTone[]): OutcomeTone {
  for (const tone of ['negative', 'caution', 'neutral', 'positive'] as const) if (tones.includes(tone)) return tone;
  return 'neutral';
}

export const OUTCOME_TONE_LABELS: Readonly<Record<OutcomeTone, string>> = {
  positive: 'passed',
  caution: 'needs attention',
  negative: 'failed',
  neutral: 'unknown result',
};
