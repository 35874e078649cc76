import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { navigate, useLocation } from '../navigation.tsx';
import { MAX_BATCH_IDS } from '../../kyc/contract/batch.ts';
import { seesCertificateOutcomes } from '../../kyc/contract/roles.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type IdList, splitIdList } from '../../kyc/view/id-list.ts';
import { unlabelList } from '../../kyc/view/id-label.ts';
import { useEnvironmentPath } from '../environment/use-environment.ts';
import { type BatchHandOver, parseAppLink } from '../routes.ts';
import { KindPicker } from '../ui/kind-picker.tsx';
import { Button } from '../ui/button.tsx';
import { Card } from '../ui/card.tsx';
import { usePageSession, useWorkSession } from '../session/session-end.ts';
import { SessionEndedNotice } from '../session/session-ended-notice.tsx';
import { BatchActions } from './batch-actions.tsx';
import { BatchProgress } from './batch-progress.tsx';
import { BatchTable } from './batch-table.tsx';
import { useFocusAfterRun } from './focus-after-run.ts';
import { ListHint } from './list-hint.tsx';
import { forgetBatch, recallBatch, rememberBatch } from './batch-memory.ts';
import { listToSend, type PersonalAnswer, PersonalListQuestion, personalLines, usePersonalList } from './personal-list.tsx';
import { batchLines, type BatchState, useBatch } from './use-batch.ts';

function handOverOf(state: unknown): BatchHandOver['batch'] | undefined {
  const batch = (state as Partial<BatchHandOver> | null)?.batch;
  return batch && Array.isArray(batch.ids) && (batch.kind === 'refId' || batch.kind === 'recordId') ? batch : undefined;
}

const appLinkId = (line: string) => parseAppLink(line)?.id;
/** Each line read as the search box reads one id (its label and `#` dropped: id-label.ts), as the offer hands the box's list over. */
const readList = (text: string, keepHeading = false) => unlabelList(splitIdList(text, appLinkId, keepHeading));
/**
 * What a batch gives this user: every role the status level; compliance users and leads also what the queue
 * index already knows of each found candidate (its certificates, its pictures, as of when), with no further call
 * to the service (batch-row.ts). A support user's rows carry none of it.
 */
function BatchIntro() {
  const triage = seesCertificateOutcomes(usePageSession()?.role);
  return (
    <p data-testid="batch-intro" className="mt-1 mb-4 text-sm text-slate-600">
      Up to {MAX_BATCH_IDS} ids, one per line (a single line is split at its commas, or else at spaces and tabs). Every id is looked up at
      status level: status, since when, submissions and the other id.{' '}
      {triage &&
        'Each found row also shows what the queue index already knows of the candidate (its certificates’ worst outcome, a record without pictures, as of when), read from the index with no extra call to the service. '}
      A refId that is not found and looks like a recordId is tried as one; in recordId mode, an id that does not is tried as a refId.
    </p>
  );
}

/** `/batch`: up to 500 ids at status level, for every role; rows stream in as they finish. */
export function BatchPage() {
  const { environment, to } = useEnvironmentPath();
  const location = useLocation();
  const handedOver = handOverOf(location.state);
  // A list handed over starts a new batch; otherwise the one this tab left here, if any (Back from a row).
  const [kept] = useState(() => (handedOver ? undefined : recallBatch(environment)));
  const [kind, setKind] = useState<LookupKind>(handedOver?.kind ?? kept?.kind ?? 'refId');
  const [text, setText] = useState(
    handedOver ? (typeof handedOver.text === 'string' ? handedOver.text : handedOver.ids.join('\n')) : (kept?.text ?? ''),
  );
  const { skipped, list, headingAsId, setHeadingAsId, personal } = usePastedList(text, kept?.headingAsId);
  const [problem, setProblem] = useState<string>();
  // Kept with the batch: Back from a row's candidate shows the same order, and j/k there follow it (batch-place.ts).
  const [attentionFirst, setAttentionFirst] = useState(kept?.attentionFirst ?? false);
  const { state, start, cancel, retry, lookUpFirst, reset } = useBatch(environment, kept?.state);
  useHandOver(handedOver, { setKind, setText, setHeadingAsId, start, ask: personal.ask });
  useEffect(() => {
    if (text.trim() === '' && state.phase === 'idle') forgetBatch(environment);
    else rememberBatch(environment, { kind, text, state, headingAsId, attentionFirst });
  }, [environment, kind, text, state, headingAsId, attentionFirst]);
  const session = useBatchSession(state, text, retry);
  useEffect(() => {
    if (session.state !== 'other') return;
    reset();
    setText('');
  }, [session.state, reset]);
  const textId = useId();
  const hintId = useId();
  const headingId = useId();

  useEffect(() => {
    document.title = 'Batch lookup · Candidate Lookup';
  }, []);

  const submit = (event?: FormEvent, answer?: PersonalAnswer) => {
    event?.preventDefault();
    // Look up all is busy, not disabled, while a batch runs: Enter in the form does not start it again.
    if (state.phase === 'running') return;
    if (list.ids.length === 0) return setProblem('Paste at least one id.');
    if (list.ids.length > MAX_BATCH_IDS) return setProblem(`A batch holds at most ${MAX_BATCH_IDS} ids; this list has ${list.ids.length}.`);
    setProblem(undefined);
    if (personal.stops(answer !== undefined)) return;
    // The lines left out have no rows: the results say which (by number), as "7 ids" beside "4 of 4" said nothing.
    start(kind, ...listToSend(list, answer), answer === 'without' ? personalLines(list) : undefined);
  };

  const running = state.phase === 'running';
  const after = useFocusAfterRun(running);
  return (
    <div className="space-y-5">
      <Card as="section" padding="lg" aria-labelledby="batch-heading">
        <h1 id="batch-heading" className="text-2xl font-semibold text-slate-900">
          Batch status lookup
        </h1>
        <BatchIntro />
        <form onSubmit={submit} noValidate className="space-y-3">
          <KindPicker kind={kind} onChange={setKind} name="batch-kind" />
          <label htmlFor={textId} className="block text-sm font-medium text-slate-700">
            {kind === 'refId' ? 'refIds' : 'recordIds'} to look up
          </label>
          <textarea
            id={textId}
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={8}
            // biome-ignore lint/a11y/noAutofocus: opened to paste a list, as the home page to type an id; not with rows to read (Back from a row, a batch starting)
            autoFocus={!handedOver?.start && !kept?.state.ids.length}
            spellCheck={false}
            autoComplete="off"
            aria-describedby={skipped.heading === undefined ? hintId : `${hintId} ${headingId}`}
            aria-invalid={problem ? true : undefined}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 focus-visible:border-blue-600 focus-ring"
          />
          <ListHint id={hintId} list={list} batch={state} />
          <HeadingChoice id={headingId} list={skipped} asId={list !== skipped} onChange={setHeadingAsId} />
          {problem && (
            <p role="alert" className="text-sm font-medium text-red-700">
              {problem}
            </p>
          )}
          {personal.asked && <PersonalListQuestion found={personal.asked} onAnswer={(answer) => submit(undefined, answer)} />}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="lg" busy={running}>
              Look up all
            </Button>
            {running && (
              <Button ref={after.cancel} variant="secondary" onClick={cancel}>
                Cancel
              </Button>
            )}
          </div>
        </form>
      </Card>
      {session.state === 'ended' && (
        <SessionEndedNotice
          user={session.user}
          kept="The list and the rows already found stay here; once you have signed in again, the batch goes on with the ones left."
        />
      )}
      {state.phase !== 'idle' && <BatchProgress state={state} onRetry={retry} onLookUpFirst={lookUpFirst} focus={after.focus} />}
      {state.ids.length > 0 && <BatchResults state={state} environment={environment} to={to} order={[attentionFirst, setAttentionFirst]} />}
    </div>
  );
}

/** The batch's rows and the hand-offs of them; a compliance user's "Needs attention first" (`order`) orders the rows. */
function BatchResults(props: {
  state: BatchState;
  environment: string | undefined;
  to: (path: string) => string;
  order: [boolean, (on: boolean) => void];
}) {
  const { state, environment, to, order } = props;
  const lines = batchLines(state);
  return (
    <>
      <BatchActions lines={lines} kind={state.kind} batch={state.ids} environment={environment} />
      <BatchTable
        lines={lines}
        kind={state.kind}
        pending={state.phase === 'running' ? 'Looking up…' : 'Not looked up'}
        to={to}
        attentionFirst={order[0]}
        onAttentionFirst={order[1]}
      />
    </>
  );
}

/**
 * The pasted list as the batch takes it: a first line taken for the column's heading is left out
 * (`skipped` names it), unless the user chose to look it up as an id (`headingAsId`, kept while it is
 * still the first line's); and the question asked when any of it reads like personal data (`personal`).
 */
function usePastedList(text: string, initialHeadingAsId: string | undefined) {
  const [headingAsId, setHeadingAsId] = useState(initialHeadingAsId);
  const skipped = useMemo(() => readList(text), [text]);
  const list = useMemo(
    () => (skipped.heading !== undefined && skipped.heading === headingAsId ? readList(text, true) : skipped),
    [skipped, text, headingAsId],
  );
  return { skipped, list, headingAsId, setHeadingAsId, personal: usePersonalList(list, text) };
}

/**
 * Each list handed over by the search box's offer is taken once, also one handed over while this page
 * is shown (the header's box on /batch): put in the box, started when the offer said "Look up all", and
 * dropped from the history entry, so that Back from a row's candidate shows the batch this tab kept (its
 * rows), not the list handed over again, empty of rows, and a reload starts nothing unseen.
 */
function useHandOver(
  handedOver: BatchHandOver['batch'] | undefined,
  page: {
    setKind: (kind: LookupKind) => void;
    setText: (text: string) => void;
    setHeadingAsId: (heading: string | undefined) => void;
    start: ReturnType<typeof useBatch>['start'];
    /** A list of which any line reads like personal data is not started but asked about, as Look up all asks. */
    ask: (text: string) => void;
  },
) {
  const taken = useRef<BatchHandOver['batch']>(undefined);
  useEffect(() => {
    if (!handedOver || taken.current === handedOver) return;
    taken.current = handedOver;
    navigate(window.location.pathname + window.location.search, { replace: true, state: null });
    const given = typeof handedOver.text === 'string' ? handedOver.text : handedOver.ids.join('\n');
    page.setKind(handedOver.kind);
    page.setText(given);
    page.setHeadingAsId(undefined);
    const list = readList(given);
    if (!handedOver.start || list.ids.length === 0 || list.ids.length > MAX_BATCH_IDS) return;
    if (personalLines(list)) page.ask(given);
    else page.start(handedOver.kind, list.ids, list.entries);
  });
}

/**
 * A first line taken for the column's heading (`Customer ref` over ids without spaces) is not looked up,
 * and the page says which: a heading looked up cost a request to the service, an audit line naming no
 * candidate and a "Not found" row. The choice can be undone either way, as an id may hold spaces.
 */
function HeadingChoice({
  id,
  list,
  asId,
  onChange,
}: {
  id: string;
  list: IdList;
  asId: boolean;
  onChange: (headingAsId: string | undefined) => void;
}) {
  if (list.heading === undefined) return null;
  const said = asId
    ? `Line ${list.headingLine}, "${list.heading}", is looked up as an id.`
    : `Skipped the heading "${list.heading}" (line ${list.headingLine}): it is not looked up.`;
  return (
    // The sentence and its button wrap as two pieces: inline, the button's height opened a gap inside the sentence on a phone.
    <p data-testid="batch-heading" className="flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
      <span id={id}>{said}</span>
      <Button variant="quiet" onClick={() => onChange(asId ? undefined : list.heading)}>
        {asId ? 'Skip it as a heading' : 'Look it up too'}
      </Button>
    </p>
  );
}

/**
 * A batch's list and rows are work: an ended session keeps them on the page, and once the same user has
 * signed in again a batch the ended session stopped goes on with the ids left; when someone else signs in,
 * the page forgets them (BatchPage).
 */
function useBatchSession(state: BatchState, text: string, retry: () => void) {
  const session = useWorkSession(text.trim() !== '' || state.ids.length > 0);
  const stoppedBySession = state.phase === 'failed' && state.problemCode === 'unauthenticated';
  const [waiting, setWaiting] = useState(false);
  if (session.state === 'ended' && stoppedBySession && !waiting) setWaiting(true);
  useEffect(() => {
    if (!waiting || session.state !== 'on') return;
    setWaiting(false);
    if (stoppedBySession) retry();
  }, [waiting, session.state, stoppedBySession, retry]);
  return session;
}
