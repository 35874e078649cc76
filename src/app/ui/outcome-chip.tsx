import { OUTCOME_TONE_LABELS, outcomeTone, type OutcomeTone } from '../../kyc/contract/outcome.ts';
import { UNCONFIRMED_NOTE } from '../../kyc/contract/certificate-triage.ts';
import { NOT_RECOGNISED } from '../../kyc/view/certificate-review.ts';
import { LongText } from './long-text.tsx';

const TONE: Record<OutcomeTone, { className: string; icon: string }> = {
  positive: { className: 'bg-emerald-50 text-emerald-900 ring-emerald-300', icon: '✓' },
  caution: { className: 'bg-amber-50 text-amber-950 ring-amber-400', icon: '!' },
  negative: { className: 'bg-red-50 text-red-900 ring-red-300', icon: '✕' },
  neutral: { className: 'bg-slate-100 text-slate-800 ring-slate-300', icon: '?' },
};

/**
 * A provider's result coloured by what it means for the decision, with an icon and the raw value as
 * text, so colour is never the only signal. `label` (such as the provider's name) goes before it;
 * `foundAt` says where in the certificate the value was read. `stated`: the pass the text of a certificate
 * that does not parse states, shown in the words of `unconfirmed` (its value), never in a pass's colour.
 */
export function OutcomeChip({ value, label, foundAt, stated }: { value: string; label?: string; foundAt?: string; stated?: string }) {
  const tone = outcomeTone(value);
  const style = TONE[tone];
  const meaning = `${OUTCOME_TONE_LABELS[tone][0]!.toUpperCase()}${OUTCOME_TONE_LABELS[tone].slice(1)}`;
  const words = stated === undefined ? value : `${stated} ${UNCONFIRMED_NOTE}`;
  return (
    <span
      data-tone={tone}
      title={`${meaning}: ${words.slice(0, 100)}${foundAt ? ` (found at ${foundAt.slice(0, 200)})` : ''}`}
      className={`inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ring-inset ${style.className}`}
    >
      <span aria-hidden="true" className="font-bold">
        {style.icon}
      </span>
      {label && (
        <span className="min-w-0 truncate font-normal">
          <LongText text={label} limit={60} />
        </span>
      )}
      {value === NOT_RECOGNISED ? (
        <span className="min-w-0 text-xs">{value}</span>
      ) : stated !== undefined ? (
        <span className="min-w-0 text-xs" data-unconfirmed>
          <span className="font-mono break-all">
            <LongText text={stated} limit={60} />
          </span>{' '}
          {UNCONFIRMED_NOTE}
        </span>
      ) : (
        <span className="min-w-0 font-mono text-xs break-all">
          <LongText text={value} limit={60} />
        </span>
      )}
      <span className="sr-only">({OUTCOME_TONE_LABELS[tone]})</span>
    </span>
  );
}
