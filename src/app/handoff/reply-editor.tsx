import { type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';
import type { FilledReply } from '../../kyc/contract/replies.ts';
import { SessionEndedNotice } from '../session/session-ended-notice.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { SERVER_BACK_TEXT } from '../ui/server-answers.ts';
import { type Drafts, draftSlot, type ShownReplies } from './reply-drafts.ts';
import { framed, type KnownOfCandidate, reframed } from './reply-frame.ts';
import { ReplyFrameFields } from './reply-frame-fields.tsx';
import { KeptEdits } from './reply-kept-edits.tsx';
import { CopyButtons } from './reply-copy-buttons.tsx';
import { replyName, StatusChanged, statusChanged } from './reply-status-change.tsx';
import { type CopyProblem, useCopy } from './use-reply-copy.ts';
import { useReplyFrame } from './use-reply-frame.ts';
import { type PageRefresh, RefreshButton, useRefreshFocus } from './hand-off-note.tsx';

export interface ReplyEditorProps {
  /** The status's templates that have a reply, in their order (its own first). */
  replies: FilledReply[];
  /** The status's internal notes (of all its templates, one without a reply too): shown when the text was written for another status. */
  notes: string[];
  /** The candidate's status as the page shows it: the one `replies` were filled in for (none: it has no customer reply). */
  status: string;
  /** Writes the hand-off's audit line, naming the template; rejects when it could not be written. */
  record: (template: string) => Promise<void>;
  /** Who is signed in: their greeting and sign-off, and whose session a copy waits for. */
  user: string | undefined;
  /** The candidate's ids, and their name and e-mail where the record has them: a greeting or sign-off to keep must not hold them. */
  known: KnownOfCandidate;
  /** Whose drafts these are (reply-drafts.ts: environment, user, candidate), kept for the tab's life. */
  draftsKey: string;
  /** The page's lookup and its Refresh: offered beside a copy refused for a lookup too old, the reply kept. */
  refresh?: PageRefresh;
}

export interface EditorState {
  /** The replies to open on: the status's, or those the agent's kept edits were made in. */
  opened: ShownReplies;
  drafts: Drafts;
  /** Changes the drafts, made in the replies `shown`. */
  setDrafts: (update: (drafts: Drafts) => Drafts, shown: ShownReplies) => void;
  /** Copied, or closed without (with the replies it showed, to reopen on them when they hold edits). */
  onDone: (copied: boolean, shown?: ShownReplies) => void;
  /** The agent let the text written for the status before go, where the status now has no reply to offer instead. */
  onDiscard: () => void;
}

/**
 * Copy reply's editor: the reply filled in from the status's template, which the agent reads and edits
 * before anything is copied. Copy records the hand-off first (its audit line names the template, never
 * the text: `record`), then puts the edited text on the clipboard; Cancel copies nothing.
 */
export function ReplyEditor({ onDone, onDiscard, opened, drafts, setDrafts, ...props }: ReplyEditorProps & EditorState) {
  const { user, known } = props;
  // The replies as the editor opened with them: a live change of status while it is open does not swap
  // the agent's text for another template's; it is said, and taken only when they choose it.
  const [shown, setShown] = useState(opened);
  const { replies } = shown;
  const { loaded, frame, onTyped, held, mayCopy } = useReplyFrame(user, known, (from, to) =>
    setDrafts((all) => Object.fromEntries(Object.entries(all).map(([key, draft]) => [key, reframed(draft, from, to)])), shown),
  );
  const [chosen, setChosen] = useState(() => editedTemplate(shown, drafts));
  const { copy, problem, back, busy, ended, waiting } = useCopy({ ...props, fetchedAt: props.refresh?.fetchedAt }, onDone);
  const now: ShownReplies = { status: props.status, replies: props.replies };
  const noticeId = useId();
  const textBox = useRef<HTMLTextAreaElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  // The text has the focus at the start, not the first button above it (the dialog's own choice): a stray
  // Enter on "Discard the Waiting text" threw the draft away. The notice above it is read with it.
  useLayoutEffect(() => textBox.current?.focus(), []);
  const reply = replies[chosen] ?? replies[0]!;
  const slot = draftSlot(shown.status, reply.template);
  const text = drafts[slot] ?? framed(reply.reply ?? '', frame);
  const setText = (next: string) => setDrafts((all) => ({ ...all, [slot]: next }), shown);

  return (
    <ModalDialog title="Reply to the customer" onClose={() => onDone(false, shown)} testId="reply-editor">
      {ended && <EndedWhileEditing user={user} waiting={waiting} />}
      <FilledFrom reply={reply} status={shown.status} named={replies.length > 1} />
      <StatusChanged
        id={noticeId}
        shown={shown}
        now={now}
        notes={props.notes}
        edited={drafts[slot] !== undefined}
        onDiscard={onDiscard}
        onUse={() => {
          setShown(now);
          setChosen(0);
          // The button goes with its notice: the focus goes to the new text, not to the page behind (UX review).
          textBox.current?.focus();
        }}
      />
      {replies.length > 1 && <TemplateChoice replies={replies} chosen={chosen} onChoose={setChosen} />}
      {reply.note && <TemplateNote note={reply.note} />}
      <ReplyText
        textBox={textBox}
        text={text}
        describedBy={statusChanged(shown, now) ? noticeId : undefined}
        onChange={(next) => setText(next)}
        copyButton={copyButton}
      />
      {drafts[slot] !== undefined && (
        <KeptEdits
          shown={shown}
          now={now}
          onRestart={() => setDrafts(({ [slot]: _restarted, ...others }) => others, shown)}
          focusText={() => textBox.current?.focus()}
        />
      )}
      {user !== undefined && <ReplyFrameFields user={user} loaded={loaded} frame={frame} known={known} onTyped={onTyped} held={held} />}
      {held && <FrameHeldLine />}
      <CopyProblemLine problem={ended ? undefined : problem} back={back} refresh={props.refresh} copyButton={copyButton} />
      <CopyButtons
        key={shown.status}
        shown={shown}
        now={now}
        notes={props.notes}
        busy={busy || waiting}
        disabled={text.trim() === ''}
        onCopy={() => {
          if (mayCopy()) void copy(reply.template, text);
        }}
        onCancel={() => onDone(false, shown)}
        onKeepEditing={() => textBox.current?.focus()}
        copyButton={copyButton}
      />
    </ModalDialog>
  );
}

/** Reopened on edits kept from before: the template they were made in (else the first). */
function editedTemplate(shown: ShownReplies, drafts: Drafts): number {
  return Math.max(
    0,
    shown.replies.findIndex((reply) => drafts[draftSlot(shown.status, reply.template)] !== undefined),
  );
}

function ReplyText(props: {
  textBox: RefObject<HTMLTextAreaElement | null>;
  text: string;
  describedBy: string | undefined;
  onChange: (text: string) => void;
  /**
   * Copy, which Ctrl+Enter (⌘Enter) in the text presses: as a click does, so that it asks first when the
   * text is of the status before, ignores a second press and records the same audit line.
   */
  copyButton: RefObject<HTMLButtonElement | null>;
}) {
  const textId = useId();
  return (
    <>
      <label htmlFor={textId} className="mb-1 block text-sm font-medium text-slate-700">
        Reply
      </label>
      <textarea
        id={textId}
        ref={props.textBox}
        aria-describedby={props.describedBy}
        value={props.text}
        onChange={(event) => props.onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
          event.preventDefault();
          props.copyButton.current?.click();
        }}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        rows={9}
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-sans text-sm text-slate-900 focus-ring"
      />
    </>
  );
}

/**
 * Why the copy did not happen (the audit line or the clipboard refused): said where the agent is. Refused
 * for a lookup too old, with the page's Refresh beside it: the dialog and the reply in it stay, and once
 * the new answer has arrived the refusal goes and the focus goes to Copy.
 */
function CopyProblemLine({
  problem,
  back,
  refresh,
  copyButton,
}: {
  problem: CopyProblem | undefined;
  /** The server could not be reached for the copy, and has answered since: the red line gave way to this. */
  back: boolean;
  refresh: PageRefresh | undefined;
  copyButton: RefObject<HTMLButtonElement | null>;
}) {
  const pressed = useRefreshFocus(problem !== undefined);
  if (!problem) return null;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      <p role="alert" className={back ? 'text-sm text-slate-700' : 'text-sm text-red-700'}>
        {back ? SERVER_BACK_TEXT : problem.text}
      </p>
      {problem.stale && refresh && <RefreshButton refresh={refresh} onPress={() => pressed(copyButton)} />}
    </div>
  );
}

/** Copy pressed while the fields hold a greeting or sign-off the frame's rules refuse: not copied without it, and said. */
function FrameHeldLine() {
  return (
    <p role="alert" className="mt-2 text-sm text-red-700">
      Not copied: the greeting or sign-off you typed cannot go around this reply (why is said under it). Change it, or clear it to copy the
      reply without it.
    </p>
  );
}

function FilledFrom({ reply, status, named }: { reply: FilledReply; status: string; named: boolean }) {
  return (
    <p className="mb-3 text-sm text-slate-600">
      Filled in from {replyName(reply, status)}
      {named ? ` (${reply.name})` : ''}. Read it, change what you need, then copy it: nothing is copied until you do.
    </p>
  );
}

/** The session ended under the editor: the reply stays, and a copy asked for waits for the sign-in. */
function EndedWhileEditing({ user, waiting }: { user: string | undefined; waiting: boolean }) {
  return (
    <SessionEndedNotice
      user={user}
      kept={
        waiting
          ? 'Your reply is kept here, and is copied as soon as you have signed in again.'
          : 'Your reply is kept here: sign in again to copy it.'
      }
    />
  );
}

function TemplateNote({ note }: { note: string }) {
  return (
    <p className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      Internal note (not copied): {note}
    </p>
  );
}

/** The status's templates by name ("Standard", "Neutral"): each keeps its own edits while another is shown. */
function TemplateChoice({ replies, chosen, onChoose }: { replies: FilledReply[]; chosen: number; onChoose: (index: number) => void }) {
  const name = useId();
  return (
    <fieldset className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <legend className="mb-1 font-medium text-slate-700">Template</legend>
      {replies.map((reply, index) => (
        <label key={reply.template} className="inline-flex items-center gap-1.5">
          <input type="radio" name={name} checked={index === chosen} onChange={() => onChoose(index)} className="focus-ring" />
          {reply.name}
        </label>
      ))}
    </fieldset>
  );
}
