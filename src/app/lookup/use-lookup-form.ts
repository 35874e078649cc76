import { useQueryClient } from '@tanstack/react-query';
import { type ClipboardEvent, type FormEvent, useRef, useState } from 'react';
import { navigate } from '../navigation.tsx';
import { checkId, type LookupKind } from '../../kyc/contract/lookup.ts';
import { cleanId, describeRemoved, type IdList } from '../../kyc/view/id-input.ts';
import { type CandidatePageModule, loadCandidatePage, loadedCandidatePage } from '../candidate/page-load.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { candidatePath, environmentPath } from '../routes.ts';
import { interpretPaste } from './paste.ts';

/**
 * The search box's state and rules: what is typed or pasted (cleaned, and said so), a pasted link's
 * kind and environment, a pasted list held for a batch, and the lookup it leads to.
 */
export function useLookupForm(current: { kind: LookupKind; id: string } | undefined) {
  const here = useEnvironmentPath();
  const [kind, setKind] = useState<LookupKind>(current?.kind ?? 'refId');
  const [value, setValue] = useState(current?.id ?? '');
  const [problem, setProblem] = useState<string>();
  const [cleaned, setCleaned] = useState<string>();
  const [linkEnvironment, setLinkEnvironment] = useState<string>();
  const [list, setList] = useState<IdList>();
  const input = useRef<HTMLInputElement>(null);
  const environment = linkEnvironment ?? here.environment;

  const submit = useSubmit({ kind, value, cleaned, environment }, setProblem);

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
    const box = event.currentTarget;
    const { next, caret } = pastedOver(box, value, pasted.id);
    setValue(next);
    setCleaned(pasted.removed);
    requestAnimationFrame(() => box.setSelectionRange(caret, caret));
  };

  const type = (text: string) => {
    setValue(text);
    setCleaned(undefined);
  };

  const clear = () => {
    type('');
    setLinkEnvironment(undefined);
    setProblem(undefined);
    setList(undefined);
    input.current?.focus();
  };

  const dismissList = () => setList(undefined);
  const useOne = (id: string) => {
    dismissList();
    setValue(id);
  };
  return {
    kind,
    setKind,
    value,
    problem,
    cleaned,
    linkEnvironment,
    list,
    input,
    environment,
    submit,
    onPaste,
    type,
    clear,
    useOne,
    dismissList,
  };
}

/** The id pasted over the selection, as the browser would have done: the new text, and where the caret goes. */
function pastedOver(box: HTMLInputElement, value: string, id: string): { next: string; caret: number } {
  const start = box.selectionStart ?? value.length;
  const end = box.selectionEnd ?? value.length;
  return { next: value.slice(0, start) + id + value.slice(end), caret: start + id.length };
}

/** A lookup of the id as cleaned, or what is wrong with it; the note of what was cleaned goes with it. */
function useSubmit(
  { kind, value, cleaned, environment }: { kind: LookupKind; value: string; cleaned: string | undefined; environment: string | undefined },
  setProblem: (problem: string | undefined) => void,
) {
  const queryClient = useQueryClient();
  return (event: FormEvent) => {
    event.preventDefault();
    const { id, removed } = cleanId(value);
    const check = checkId(id);
    if (!check.ok) return setProblem(id === '' ? `Enter a ${kind} to look up.` : check.message);
    setProblem(undefined);
    // The lookup's request leaves now, rather than once the page it leads to has rendered.
    const start = (page: CandidatePageModule) => page.startLookup(queryClient, kind, id, environment);
    const page = loadedCandidatePage();
    if (page) start(page);
    else void loadCandidatePage().then(start, () => {});
    const note = [cleaned, describeRemoved(removed)].filter(Boolean).join(', ') || undefined;
    navigate(environmentPath(environment, candidatePath(kind, id)), { state: note ? { cleaned: note } : null });
  };
}
