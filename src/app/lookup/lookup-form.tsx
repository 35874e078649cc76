import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { checkId, LOOKUP_KINDS, type LookupKind } from '../../kyc/contract/lookup.ts';
import { candidatePath } from '../routes.ts';

const KIND_HINTS: Record<LookupKind, string> = {
  refId: 'Your own user id, as assigned in the widget',
  recordId: 'The record id the widget returned',
};

/** Look up by refId (what support agents have) or by recordId. Trims; refuses an empty or invalid id. */
export function LookupForm({ compact = false, initialKind = 'refId' }: { compact?: boolean; initialKind?: LookupKind }) {
  const navigate = useNavigate();
  const [kind, setKind] = useState<LookupKind>(initialKind);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const inputId = useId();
  const errorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = value.trim();
    const check = checkId(id);
    if (!check.ok) {
      setProblem(id === '' ? `Enter a ${kind} to look up.` : check.message);
      return;
    }
    setProblem(undefined);
    void navigate(candidatePath(kind, id));
  };

  return (
    <form onSubmit={submit} noValidate role="search" aria-label="Look up a candidate" className={compact ? 'w-full' : 'space-y-3'}>
      <div className={`flex flex-wrap items-stretch gap-2 ${compact ? '' : 'sm:flex-nowrap'}`}>
        <fieldset className="flex shrink-0 rounded-md border border-slate-300 bg-white p-0.5">
          <legend className="sr-only">Look up by</legend>
          {LOOKUP_KINDS.map((option) => (
            <label
              key={option}
              title={KIND_HINTS[option]}
              className="cursor-pointer rounded px-3 py-1.5 text-sm font-medium text-slate-700 has-checked:bg-blue-700 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-1 has-focus-visible:outline-blue-600"
            >
              <input
                type="radio"
                name="kind"
                value={option}
                checked={kind === option}
                onChange={() => setKind(option)}
                className="sr-only"
              />
              {option}
            </label>
          ))}
        </fieldset>
        <label htmlFor={inputId} className="sr-only">
          {kind} to look up
        </label>
        <input
          id={inputId}
          name="id"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder={kind === 'refId' ? 'refId, e.g. cust_000482' : 'recordId, e.g. 65f1c2a9e4b0d3a1f0c9b801'}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-blue-600 focus-visible:outline-2 focus-visible:outline-blue-600"
        />
        <button
          type="submit"
          className="rounded-md bg-blue-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          Look up
        </button>
      </div>
      {problem && (
        <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
    </form>
  );
}
