import { LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';

const KIND_HINTS: Record<LookupKind, string> = {
  refId: 'Your own user id, as assigned in the widget',
  recordId: 'The record id the widget returned',
};

/** refId or recordId, as a segmented control of two radio buttons. */
export function KindPicker({ kind, onChange, name = 'kind' }: { kind: LookupKind; onChange: (kind: LookupKind) => void; name?: string }) {
  return (
    <fieldset className="flex w-fit shrink-0 self-start rounded-md border border-slate-300 bg-white p-0.5 sm:self-auto">
      <legend className="sr-only">Look up by</legend>
      {LOOKUP_KINDS.map((option) => (
        <label
          key={option}
          title={KIND_HINTS[option]}
          className="cursor-pointer rounded px-3 py-1.5 text-sm font-medium text-slate-700 has-checked:bg-blue-700 has-checked:text-white focus-ring-within has-focus-visible:outline-offset-1"
        >
          <input type="radio" name={name} value={option} checked={kind === option} onChange={() => onChange(option)} className="sr-only" />
          {option}
        </label>
      ))}
    </fieldset>
  );
}
