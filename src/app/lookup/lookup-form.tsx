import { type ClipboardEvent, type FormEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { checkId, type LookupKind } from '../../kyc/contract/lookup.ts';
import { cleanId, describeRemoved, type IdList } from '../../kyc/view/id-input.ts';
import type { BatchHandOver } from '../batch/batch-page.tsx';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { useRecentLookups } from '../recent/recent-lookups.ts';
import { candidatePath, environmentPath } from '../routes.ts';
import { Button } from '../ui/button.tsx';
import { KindPicker } from './kind-picker.tsx';
import { interpretPaste } from './paste.ts';
import { useSearchShortcut } from './use-search-shortcut.ts';

export interface LookupFormProps {
  compact?: boolean;
  /** Focus the box when the form appears (the home page). */
  autoFocus?: boolean;
  /** The candidate the page shows: the box and the toggle follow it. */
  current?: { kind: LookupKind; id: string };
}

/**
 * Look up by refId (what support agents have) or by recordId. Pasted text is cleaned of invisible
 * characters (and says so), a link of this app gives its id, a list offers a batch lookup instead.
 */
export function LookupForm({ compact = false, autoFocus = false, current }: LookupFormProps) {
  const navigate = useNavigate();
  const here = useEnvironmentPath();
  const [kind, setKind] = useState<LookupKind>(current?.kind ?? 'refId');
  const [value, setValue] = useState(current?.id ?? '');
  const [problem, setProblem] = useState<string>();
  const [cleaned, setCleaned] = useState<string>();
  const [linkEnvironment, setLinkEnvironment] = useState<string>();
  const [list, setList] = useState<IdList>();
  const input = useRef<HTMLInputElement>(null);
  const selectOnMouseUp = useRef(false);
  const ids = { input: useId(), error: useId(), note: useId(), suggestions: useId() };
  const environment = linkEnvironment ?? here.environment;
  const recent = useRecentLookups().filter((r) => r.kind === kind);
  useSearchShortcut(input);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { id, removed } = cleanId(value);
    const check = checkId(id);
    if (!check.ok) return setProblem(id === '' ? `Enter a ${kind} to look up.` : check.message);
    setProblem(undefined);
    const note = [cleaned, describeRemoved(removed)].filter(Boolean).join(', ') || undefined;
    void navigate(environmentPath(environment, candidatePath(kind, id)), { state: note ? { cleaned: note } : null });
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!text) return;
    event.preventDefault();
    setProblem(undefined);
    const pasted = interpretPaste(text);
    if (pasted.type === 'list') return setList(pasted.list);
    setList(undefined);
    if (pasted.type === 'link') {
      setKind(pasted.link.kind);
      setValue(pasted.link.id);
      setLinkEnvironment(pasted.link.environment);
      setCleaned(undefined);
      return;
    }
    // Pasted over the selection, as the browser would have done.
    const box = event.currentTarget;
    const start = box.selectionStart ?? value.length;
    const end = box.selectionEnd ?? value.length;
    const next = value.slice(0, start) + pasted.id + value.slice(end);
    setValue(next);
    setCleaned(pasted.removed);
    requestAnimationFrame(() => box.setSelectionRange(start + pasted.id.length, start + pasted.id.length));
  };

  const clear = () => {
    setValue('');
    setCleaned(undefined);
    setLinkEnvironment(undefined);
    setProblem(undefined);
    setList(undefined);
    input.current?.focus();
  };

  const describedBy = [problem && ids.error, cleaned && ids.note].filter(Boolean).join(' ') || undefined;
  return (
    <search aria-label="Look up a candidate" className={compact ? 'block w-full' : 'block space-y-3'}>
      <form onSubmit={submit} noValidate>
        <div className={compact ? 'flex flex-col gap-2 sm:flex-row' : 'flex flex-col gap-2 sm:flex-row sm:items-stretch'}>
          <KindPicker kind={kind} onChange={setKind} />
          <div data-testid="search-field-row" className="flex min-w-0 flex-1 gap-2">
            <div className="relative min-w-0 flex-1">
              <label htmlFor={ids.input} className="sr-only">
                {kind} to look up
              </label>
              <input
                ref={input}
                id={ids.input}
                name="id"
                value={value}
                // The home page's one job is this box: focus belongs there when it opens.
                // biome-ignore lint/a11y/noAutofocus: the search box is the home page's only purpose
                autoFocus={autoFocus}
                onChange={(event) => {
                  setValue(event.target.value);
                  setCleaned(undefined);
                }}
                onPaste={onPaste}
                onFocus={(event) => {
                  event.currentTarget.select();
                  selectOnMouseUp.current = true;
                }}
                onMouseUp={(event) => {
                  // A click that focused the box would otherwise put the caret where it landed and lose the selection.
                  if (selectOnMouseUp.current) event.preventDefault();
                  selectOnMouseUp.current = false;
                }}
                onBlur={() => {
                  selectOnMouseUp.current = false;
                }}
                list={recent.length > 0 ? ids.suggestions : undefined}
                placeholder={kind === 'refId' ? 'refId, e.g. cust_000482' : 'recordId, e.g. 65f1c2a9e4b0d3a1f0c9b801'}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={problem ? true : undefined}
                aria-describedby={describedBy}
                aria-keyshortcuts="/ Control+K Meta+K"
                className="w-full min-w-0 rounded-md border border-slate-300 bg-white py-1.5 pr-9 pl-3 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:border-blue-600 focus-ring"
              />
              {value !== '' && (
                <button
                  type="button"
                  onClick={clear}
                  aria-label="Clear the id"
                  className="absolute inset-y-0 right-1 my-auto flex size-7 items-center justify-center rounded text-lg leading-none text-slate-500 hover:text-slate-900 focus-ring"
                >
                  <span aria-hidden="true">×</span>
                </button>
              )}
              {recent.length > 0 && (
                <datalist id={ids.suggestions}>
                  {recent.map((r) => (
                    <option key={`${r.environment}:${r.id}`} value={r.id} label={`${r.status} · ${r.environment}`} />
                  ))}
                </datalist>
              )}
            </div>
            <Button type="submit" size="lg">
              Look up
            </Button>
          </div>
        </div>
        {problem && (
          <p id={ids.error} role="alert" className="mt-1 text-sm font-medium text-red-700">
            {problem}
          </p>
        )}
        {(cleaned || linkEnvironment) && (
          <p id={ids.note} role="status" className="mt-1 text-sm text-slate-700">
            {cleaned && `Removed from the pasted id: ${cleaned}.`}
            {linkEnvironment && ` Taken from a link to the ${linkEnvironment} environment.`}
          </p>
        )}
      </form>
      {list && (
        <BatchOffer
          list={list}
          kind={kind}
          environment={environment}
          onDismiss={() => setList(undefined)}
          onUseOne={(id) => {
            setList(undefined);
            setValue(id);
          }}
        />
      )}
    </search>
  );
}

/** A pasted list: offered as a batch lookup rather than pasted into the box as one id. */
function BatchOffer({
  list,
  kind,
  environment,
  onDismiss,
  onUseOne,
}: {
  list: IdList;
  kind: LookupKind;
  environment: string | undefined;
  onDismiss: () => void;
  onUseOne: (id: string) => void;
}) {
  const navigate = useNavigate();
  const handOver: BatchHandOver = { batch: { kind, ids: list.ids } };
  return (
    <div
      role="status"
      className="mt-2 flex flex-wrap items-center gap-3 rounded-md border border-blue-300 bg-blue-50 px-3 py-2 text-sm text-blue-950"
    >
      <span>
        You pasted a list of {list.ids.length} ids{list.duplicates > 0 ? ` (${list.duplicates} repeated)` : ''}.
      </span>
      <Button size="sm" onClick={() => void navigate(environmentPath(environment, '/batch'), { state: handOver })}>
        Look up all {list.ids.length} in a batch
      </Button>
      <Button variant="quiet" onClick={() => onUseOne(list.ids[0]!)}>
        Use the first one
      </Button>
      <Button variant="quiet" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
