import { useQueryClient } from '@tanstack/react-query';
import { type ClipboardEvent, type Dispatch, type FormEvent, type RefObject, useReducer, useRef } from 'react';
import { navigate, useLocation } from '../navigation.tsx';
import { checkId, guessKind, type LookupKind, looksLikeRecordId } from '../../kyc/contract/lookup.ts';
import { parseDashboardLink } from '../../kyc/view/dashboard-link.ts';
import { cleanId, describeRemoved, unwrapId } from '../../kyc/view/id-input.ts';
import { isPlainId } from '../../kyc/view/plain-id.ts';
import { type CandidatePageModule, loadCandidatePage, loadedCandidatePage } from '../candidate/page-load.ts';
import { useEnvironment } from '../environment/use-environment.ts';
import { candidatePath, environmentPath, type LookupNote, parseAppLink } from '../routes.ts';
import { type DashboardLookup, dashboardLookup } from './dashboard-lookup.ts';
import { focusPageHeading } from '../ui/focus-heading.ts';
import { type Asked, initialLookupForm, type LookupFormAction, lookupFormReducer } from './lookup-form-state.ts';
import type { Pasted } from './paste.ts';
import { pasteAtOnce } from './paste-at-once.ts';
import { waitForReader } from './reader-wait.ts';
import { pageAgain } from './page-again.ts';

type Here = ReturnType<typeof useEnvironment>;

/** The page's environment as a dashboard link is matched against it. */
const matchedIn = (here: Here) => ({
  environment: here.environment,
  info: here.info,
  environments: here.meta?.environments ?? [],
  known: here.meta !== undefined,
});

type Current = { kind: LookupKind; id: string } | undefined;

/**
 * The kind the box looks up by: the switch's (or a pasted link's) when one was chosen; the page's for
 * the page's own id; else the one the id's form says (24 hex characters: a recordId; anything else: a
 * refId), so that after a queue row opened by recordId the next refId typed is looked up as one.
 */
export function kindOf(chosen: LookupKind | undefined, value: string, current: Current): { kind: LookupKind; guessed: boolean } {
  if (chosen) return { kind: chosen, guessed: false };
  if (current && value === current.id) return { kind: current.kind, guessed: false };
  const unwrapped = unwrapId(cleanId(value).id).id;
  // As the lookup will read it (readBox): `65f1c2a9e4b0d3a1f0c9b801.` is a recordId.
  const id = pasteModule?.readOneId(unwrapped).id ?? unwrapped;
  if (id === '') return { kind: current?.kind ?? 'refId', guessed: false };
  return { kind: guessKind(id), guessed: true };
}

/**
 * The search box's state and rules: what is typed or pasted (cleaned, and said so), the kind read from
 * the id's form unless the switch says otherwise, a pasted link's kind and environment (a link of this
 * app, or of the service's dashboard), a pasted list held for a batch, and the lookup it leads to.
 */
export function useLookupForm(current: Current) {
  const here = useEnvironment();
  const [state, dispatch] = useReducer(lookupFormReducer, current?.id ?? '', initialLookupForm);
  const { chosen, linked, value, problem, cleaned, linkEnvironment, list, asked } = state;
  // Read against the environments as they are now: a link pasted before the server said which it serves is read again once it has.
  const dashboard = state.dashboard && dashboardLookup(state.dashboard, matchedIn(here));
  const picked = chosen ?? linked;
  const { kind, guessed } = kindOf(picked, value, current);
  const input = useRef<HTMLInputElement>(null);
  const environment = dashboard ? dashboard.environment : (linkEnvironment ?? here.environment);

  const submit = useSubmit({ kind, picked, guessed, value, cleaned, environment, dashboard, here, shown: current, field: input }, dispatch);
  const onPaste = pasteHandler(value, dispatch);
  const type = (text: string) => dispatch({ type: 'typed', text });
  const clear = () => {
    dispatch({ type: 'cleared' });
    input.current?.focus();
  };
  /**
   * Escape: what was typed is dropped and the box shows the page's id again (as the header promises: it
   * follows the page shown); pressed again with nothing to drop, it leaves the box for the page.
   */
  const drop = () => {
    const shown = current?.id ?? '';
    const choiceKept = current === undefined || chosen === undefined;
    if (value === shown && choiceKept && linked === undefined && !problem && !list && !cleaned && !asked) return focusPageHeading();
    dispatch({ type: 'restored', value: shown, keepChoice: current === undefined });
    requestAnimationFrame(() => input.current?.select());
  };
  // The offer's buttons go with it: the focus goes back to the box, where it fell to the page and Enter did nothing.
  const dismissList = () => {
    dispatch({ type: 'listDismissed' });
    input.current?.focus();
  };
  const useOne = (id: string) => {
    dispatch({ type: 'listIdUsed', id });
    input.current?.focus();
  };
  const choose = (picked: LookupKind) => dispatch({ type: 'kindChosen', kind: picked });
  const notice = dashboard?.note;
  // A pasted list is looked up as the switch says, else as recordIds when every id has their form (the batch tries the others).
  const listKind = chosen ?? (list?.ids.every(looksLikeRecordId) ? 'recordId' : 'refId');
  return {
    kind,
    listKind,
    setKind: choose,
    value,
    problem,
    cleaned,
    linkEnvironment,
    notice,
    list,
    asked,
    input,
    environment,
    submit,
    lookUpAnyway: () => submit(undefined, true),
    unask: () => dispatch({ type: 'unasked' }),
    onPaste,
    type,
    clear,
    drop,
    useOne,
    dismissList,
  };
}

type PasteModule = typeof import('./paste.ts');
let pasteModule: PasteModule | undefined;
let fetchPaste = () => import('./paste.ts');

/**
 * How a paste is read (paste.ts, with the id list's rules) is not part of the first load: fetched once the
 * form is shown (LookupForm), and read at once from then on.
 */
export const loadPaste = () => fetchPaste().then((module) => (pasteModule = module));

/** The reader fetched by `fetch` from now on, and not here until it has been: a test's, to have it come late. */
export function fetchPasteBy(fetch: () => Promise<PasteModule>) {
  pasteModule = undefined;
  fetchPaste = fetch;
}

/**
 * Calls `go` once, whichever comes first: the paste reader (0), its failure (1: offline), or the end of the
 * wait for it (2: late), then only if the box still holds `value` (typed in since, what was typed stays,
 * for the next Enter). Before, a reader that never settled held Enter for ever.
 */
function afterReader(field: RefObject<HTMLInputElement | null>, value: string, go: () => void) {
  void Promise.race([
    loadPaste().then(
      () => 0,
      () => 1,
    ),
    waitForReader().then(() => 2),
  ]).then((how) => {
    if (how < 2 || field.current?.value === value) go();
  });
}

/**
 * A paste into the box: a dashboard link or a link of this app gives its id, a list is held for a batch, an
 * id is cleaned. Before the reader is here, the text goes in at once, cleaned by the small rule of the first
 * load (pasteAtOnce: outer whitespace, invisible characters, a label); once the reader is here the paste is
 * read, unless the box holds something else by then. (A late reading used to overwrite what was typed
 * meanwhile, and the box showed nothing of the paste while it waited; a reader that never came, offline,
 * left the paste in the box as it came.)
 */
function pasteHandler(value: string, dispatch: Dispatch<LookupFormAction>) {
  return (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!text) return;
    event.preventDefault();
    const box = event.currentTarget;
    const start = box.selectionStart ?? value.length;
    const end = box.selectionEnd ?? value.length;
    // The id pasted over the selection, as the browser would have done.
    const over = (id: string) => value.slice(0, start) + id + value.slice(end);
    const read = (pasted: Pasted) => takePaste(pasted, box, over, start, dispatch);
    if (pasteModule) return read(pasteModule.interpretPaste(text));
    const quick = pasteAtOnce(text);
    read({ type: 'id', ...quick });
    // What the box shows now (a text box drops line breaks): read again only while it still does.
    const held = over(quick.id).replace(/\r\n|\r|\n/g, '');
    loadPaste().then(
      () => box.value === held && read(pasteModule!.interpretPaste(text)),
      () => {},
    );
  };
}

function takePaste(
  pasted: Pasted,
  box: HTMLInputElement,
  over: (id: string) => string,
  start: number,
  dispatch: Dispatch<LookupFormAction>,
) {
  // A list or a link comes only from the reader, which says what it does to the box.
  if (pasted.type !== 'id') return dispatch(pasteModule!.pastedAction(pasted));
  const caret = start + pasted.id.length;
  dispatch({ type: 'pastedId', value: over(pasted.id), removed: pasted.removed });
  requestAnimationFrame(() => box.setSelectionRange(caret, caret));
}

interface SubmitInput {
  kind: LookupKind;
  /** The kind chosen (the switch, a pasted link): Enter on the page's id with one is a new lookup (pageAgain). */
  picked: LookupKind | undefined;
  /** The kind was read from the id's form: a recordId not found is tried once as a refId (the candidate page). */
  guessed: boolean;
  value: string;
  cleaned: string | undefined;
  environment: string | undefined;
  dashboard: DashboardLookup | undefined;
  here: Here;
  /** The page's candidate: its id was looked up already, and is not asked about again. */
  shown: Current;
  field: RefObject<HTMLInputElement | null>;
}

/** The id to look up, and how: a dashboard link's or this app's link's, else the box's text cleaned and unwrapped. */
function readBox(input: SubmitInput) {
  const typedLink = parseDashboardLink(input.value);
  if (typedLink && !typedLink.ok) return { problem: typedLink.problem };
  if (typedLink) {
    const read = dashboardLookup(typedLink, matchedIn(input.here));
    return { kind: 'recordId' as const, id: read.id, environment: read.environment, read, removed: [], guessed: false, chosen: true };
  }
  const appLink = parseAppLink(input.value.trim());
  if (appLink) return { kind: appLink.kind, id: appLink.id, environment: appLink.environment, removed: [], guessed: false, chosen: true };
  const { id: cleaned, removed } = cleanId(input.value);
  const unwrapped = unwrapId(cleaned);
  // Read as the batch reads a line (a sentence's full stop after it, a label, a `#`): the rule comes with
  // the paste reader, which a lookup waits for (useSubmit); without it (offline), as unwrapped.
  const one = pasteModule?.readOneId(unwrapped.id) ?? { id: unwrapped.id, removed: undefined };
  const dropped = [unwrapped.dropped, one.removed].filter(Boolean).join(' and ') || undefined;
  // A kind read from the id's form is read from the id looked up: Enter before the reader came kept the kind of
  // `65f1c2a9e4b0d3a1f0c9b810.` as typed, a refId, and its lookup found no one before the fallback to recordId.
  const kind = input.guessed && one.id !== '' ? guessKind(one.id) : input.kind;
  return { kind, id: one.id, environment: input.environment, read: input.dashboard, removed, dropped, guessed: input.guessed };
}

/** What the box asks about before looking `id` up: by the rule once it is here; without it, any text but a plain id. */
function askAbout(id: string): Asked | undefined {
  if (pasteModule) return pasteModule.findPersonalData(id);
  return isPlainId(id) ? undefined : 'unchecked';
}

/**
 * A lookup of the id as cleaned, or what is wrong with it; the notes of what was cleaned, dropped or read
 * go with it. A dashboard link (or a link of this app) that reached the box without a paste (typed,
 * dropped) is read here.
 */
function useSubmit(input: SubmitInput, dispatch: Dispatch<LookupFormAction>) {
  const queryClient = useQueryClient();
  const shownState = useLocation().state;
  // `anyway`: the reviewer answered the question of text that reads like personal data (below) by looking it up;
  // `waited`: for the paste reader, which brings the rule for that question (afterReader).
  const submit = (event?: FormEvent, anyway = false, waited = false) => {
    event?.preventDefault();
    const box = readBox(input);
    if (box.problem !== undefined) return dispatch({ type: 'refused', problem: box.problem });
    const { id, environment, read, removed } = box;
    const chosen = input.picked !== undefined || box.chosen === true;
    const { kind, again } = pageAgain({ ...box, chosen }, input.shown, input.here.environment);
    const check = checkId(id);
    // Slashes alone are what the search shortcut typed into the box leaves, never an id.
    if (id === '' || /^\/+$/.test(id)) return dispatch({ type: 'refused', problem: `Enter a ${kind} to look up.` });
    if (!check.ok) return dispatch({ type: 'refused', problem: check.message });
    const asking = !anyway && id !== input.shown?.id;
    // The rule comes with the paste reader, after the first paint: a lookup sent before it is here waits for it.
    if (asking && !pasteModule && !waited) return afterReader(input.field, input.value, () => submit(undefined, false, true));
    // A name, an e-mail address, a phone number or a date finds no one by refId, and would stay in the
    // address, the history and the audit file: asked first, also when it is among other words (findPersonalData),
    // the box's text selected to type the id over it.
    // Without the rule (offline, or late), only a plain id goes ahead unasked: before, any text did.
    const what = asking ? askAbout(id) : undefined;
    if (what) {
      input.field.current?.focus();
      input.field.current?.select();
      return dispatch({ type: 'asked', what });
    }
    dispatch({ type: 'submitted' });
    // The lookup's request leaves now, rather than once the page it leads to has rendered.
    const start = (page: CandidatePageModule) => page.startLookup(queryClient, kind, id, environment);
    const page = loadedCandidatePage();
    if (page) start(page);
    else void loadCandidatePage().then(start, () => {});
    if (again) return navigate(environmentPath(environment, candidatePath(kind, id)), { replace: true, state: shownState });
    const cleanedNote = [input.cleaned, describeRemoved(removed)].filter(Boolean).join(', ') || undefined;
    // Without the reader (late, offline, or still not here after the question), a paste is looked up as the box
    // showed it (a list or a link in it not read), and any text without the batch's reading (readOneId): said.
    const dropped = box.dropped;
    // Without the reader, an id its reading could change (a mark at either end, a space, a `#` or a `:`) is
    // looked up as typed, and said; one of letters and digits between would read the same: nothing to say
    // (the page said "Dropped the box's full reading…" of every id, though nothing had been dropped).
    const asTyped = !pasteModule && id !== input.shown?.id && !/^[\p{L}\p{N}](?:[^\s#:]*[\p{L}\p{N}])?$/u.test(id);
    const note: LookupNote = {
      ...(cleanedNote ? { cleaned: cleanedNote } : {}),
      ...(read ? { dashboard: read.note } : {}),
      ...(dropped ? { dropped } : {}),
      ...(asTyped ? { asTyped: true } : {}),
      ...(box.guessed && kind === 'recordId' ? { guessed: true } : {}),
    };
    navigate(environmentPath(environment, candidatePath(kind, id)), { state: Object.keys(note).length > 0 ? note : null });
  };
  return submit;
}
