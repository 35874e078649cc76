/**
 * What a provider's result means for the decision. The colour families a reviewer expects from
 * Sumsub- or Onfido-style applicant pages; every chip also carries an icon and the raw text, so colour
 * is never the only signal. Values outside this table are unknown: neutral, shown as received.
 */
export type OutcomeTone = 'positive' | 'caution' | 'negative' | 'neutral';

interface KnownOutcome {
  tone: Exclude<OutcomeTone, 'neutral'>;
  /** Higher is worse: of several outcomes in one certificate, its chip shows the highest. */
  severity: number;
  meaning: string;
}

/** Every outcome word this tool reads, with what it means (docs/using.md repeats this table). */
export const KNOWN_OUTCOMES: Readonly<Record<string, KnownOutcome>> = {
  match: { tone: 'negative', severity: 100, meaning: 'A screening hit.' },
  true_positive: { tone: 'negative', severity: 100, meaning: 'A screening hit a reviewer confirmed.' },
  rejected: { tone: 'negative', severity: 95, meaning: 'The check rejected the person or document.' },
  declined: { tone: 'negative', severity: 95, meaning: 'The check declined the person or document.' },
  suspected: { tone: 'negative', severity: 90, meaning: 'Suspected fraud.' },
  failed: { tone: 'negative', severity: 90, meaning: 'The check failed.' },
  potential_match: { tone: 'caution', severity: 60, meaning: 'A possible screening hit: a reviewer must look.' },
  consider: { tone: 'caution', severity: 55, meaning: 'The check asks a reviewer to look.' },
  caution: { tone: 'caution', severity: 50, meaning: 'The check asks for caution.' },
  // This tool's own words (certificate-text.ts): a certificate it cannot read is looked at; a pass is never read from one that may be cut off.
  unreadable: {
    tone: 'caution',
    severity: 45,
    meaning: 'A certificate that is not JSON and states no known result, or states none this tool knows: a reviewer must look.',
  },
  unconfirmed: {
    tone: 'caution',
    severity: 40,
    meaning: 'A pass read from a certificate that is cut off or not valid JSON: the rest of it is unknown, so a reviewer must look.',
  },
  false_positive: { tone: 'positive', severity: 15, meaning: 'Not a hit: a screening hit a reviewer dismissed.' },
  no_match: { tone: 'positive', severity: 10, meaning: 'No screening hit.' },
  clear: { tone: 'positive', severity: 10, meaning: 'The check passed.' },
  passed: { tone: 'positive', severity: 10, meaning: 'The check passed.' },
  approved: { tone: 'positive', severity: 10, meaning: 'The check approved the person or document.' },
};

/** `Potential Match`, `potential-match`, `potentialMatch` and ` POTENTIAL_MATCH ` are one word: `potential_match`. */
export function outcomeKey(value: string): string {
  return value
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** The table's entry for a value, matched without regard to case, separators or surrounding spaces. */
export function knownOutcome(value: string): KnownOutcome | undefined {
  const key = outcomeKey(value);
  return Object.hasOwn(KNOWN_OUTCOMES, key) ? KNOWN_OUTCOMES[key] : undefined;
}

export function outcomeTone(value: string): OutcomeTone {
  return knownOutcome(value)?.tone ?? 'neutral';
}

/**
 * The worst of several outcome words: the highest severity, ties broken by the word, so that the same
 * words give the same answer wherever a document keeps them. Undefined when none is a known word.
 */
export function worstOutcome(values: readonly string[]): string | undefined {
  let worst: { value: string; severity: number; key: string } | undefined;
  for (const value of values) {
    const known = knownOutcome(value);
    if (!known) continue;
    const key = outcomeKey(value);
    if (!worst || known.severity > worst.severity || (known.severity === worst.severity && key < worst.key)) {
      worst = { value, severity: known.severity, key };
    }
  }
  return worst?.value;
}

export const OUTCOME_TONE_LABELS: Readonly<Record<OutcomeTone, string>> = {
  positive: 'passed',
  caution: 'needs attention',
  negative: 'failed',
  neutral: 'unknown result',
};
