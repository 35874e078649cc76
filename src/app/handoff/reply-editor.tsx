import { useEffect, useId, useRef, useState } from 'react';
import type { FilledReply } from '../../kyc/contract/replies.ts';
import { ApiError } from '../api/api-error.ts';
import { useHoldPage, useSessionEnd } from '../session/session-end.ts';
import { SessionEndedNotice } from '../session/session-ended-notice.tsx';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { useFlash } from '../ui/use-flash.ts';
import {
  type Drafts,
  draftSlot,
  forgetDrafts,
  holdsEdits,
  type KeptDrafts,
  keepDrafts,
  recallDrafts,
  type ShownReplies,
  sameReplies,
} from './reply-drafts.ts';
import { framed, loadReplyFrame, type ReplyFrame, reframed } from './reply-frame.ts';
import { ReplyFrameFields } from './reply-frame-fields.tsx';
import { CopyButtons } from './reply-copy-buttons.tsx';
import { replyName, StatusChanged } from './reply-status-change.tsx';

export interface ReplyEditorProps {
  /** The status's templates that have a reply, in their order (its own first). */
  replies: FilledReply[];
  /** The status's internal notes (of all its templates, one without a reply too): shown when the text was written for another status. */
  notes: string[];
  /** The candidate's status as the page shows it: the one `replies` were filled in for. */
  status: string;
  /** Writes the hand-off's audit line, naming the template; rejects when it could not be written. */
  record: (template: string) => Promise<void>;
  /** Who is signed in: their greeting and sign-off, and whose session a copy waits for. */
  user: string | undefined;
  /** The candidate's ids: a greeting or sign-off to keep must not hold them. */
  ids: ReadonlyArray<string | null | undefined>;
  /** Whose drafts these are (reply-drafts.ts: environment, user, candidate), kept for the tab's life. */
  draftsKey: string;
}

/**
 * Copy reply: a small editor with the reply filled in from the status's template, which the agent reads
 * and edits before anything is copied. Copy records the hand-off first (its audit line names the
 * template, never the text: `record`), then puts the edited text on the clipboard; Cancel copies
 * nothing. What came of it is said beside the button (for screen readers too).
 */
export function ReplyAction(props: ReplyEditorProps) {
  // Its state is of one user's drafts of one candidate: another user signed in on the page (or another
  // candidate) starts it anew, so that what the previous one wrote is never shown to them (code review:
  // the drafts stayed in this state while its key named the new user).
  return <DraftsOf key={props.draftsKey} {...props} />;
}

function DraftsOf(props: ReplyEditorProps) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useFlash(false, 3000);
  const { draftsKey } = props;
  const now: ShownReplies = { status: props.status, replies: props.replies };
  // The agent's edits, by status and template (draftSlot): kept when the editor is closed without copying (Cancel, Escape), and
  // while this tab is open when they leave the page (reply-drafts.ts), so that reopening it gives back what
  // they wrote; let go once a reply is copied.
  const [drafts, setDraftsNow] = useState<Drafts>(() => recallDrafts(draftsKey)?.drafts ?? {});
  // The replies the editor showed when it was closed on edits: a status that changed live since (or while
  // it was open, or while the agent was elsewhere) must not leave those edits out of reach, as it did when
  // the editor reopened on the new status's templates alone. Reopened on them, it says the status changed
  // and offers the new reply.
  const [shownWith, setShownWith] = useState(() => reopenOn(recallDrafts(draftsKey), now));
  const latest = useRef(drafts);
  latest.current = drafts;
  // Kept as each edit is made: a page left with the editor open (Back) closes it without a word.
  const setDrafts = (update: (drafts: Drafts) => Drafts, shown: ShownReplies) => {
    const next = update(latest.current);
    latest.current = next;
    setDraftsNow(next);
    keepDrafts(draftsKey, next, shown);
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Copy reply
      </Button>
      <span aria-live="polite" className="text-sm text-slate-600">
        {copied ? 'Reply copied' : ''}
      </span>
      {open && (
        <ReplyEditor
          {...props}
          opened={shownWith ?? now}
          drafts={drafts}
          setDrafts={setDrafts}
          onDone={(done, shown) => {
            setOpen(false);
            // A close after the copy (the dialog's own close event) must not take "copied" back.
            if (done) {
              setCopied(true);
              setDraftsNow({});
              setShownWith(undefined);
              forgetDrafts(draftsKey);
            } else if (shown) {
              setShownWith(holdsEdits(latest.current, shown) ? shown : undefined);
              keepDrafts(draftsKey, latest.current, shown);
            }
          }}
        />
      )}
    </span>
  );
}

/**
 * The copy, and what stands in its way: a session that ended keeps the draft here (the page stays
 * behind the dialog), and the copy is finished once the same user has signed in again; if someone
 * else signs in, the draft is not theirs to see, and the editor closes.
 */
function useCopy({ record, user }: Pick<ReplyEditorProps, 'record' | 'user'>, onDone: (copied: boolean) => void) {
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<{ template: string; text: string }>();
  const session = useSessionEnd(user);
  const ended = useRef(false);
  if (session === 'ended') ended.current = true;
  useHoldPage(true);

  const copy = async (template: string, text: string) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await record(template);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.code === 'unauthenticated') setWaiting({ template, text });
      return setProblem((error as Error).message);
    }
    try {
      await navigator.clipboard.writeText(text);
      onDone(true);
    } catch {
      setBusy(false);
      setProblem('The browser refused access to the clipboard.');
    }
  };
  const latest = useRef(copy);
  latest.current = copy;
  useEffect(() => {
    if (session === 'other') onDone(false);
    if (session !== 'on' || !waiting || !ended.current) return;
    ended.current = false;
    setWaiting(undefined);
    void latest.current(waiting.template, waiting.text);
  }, [session, waiting, onDone]);
  return { copy, problem, busy, ended: session === 'ended', waiting: waiting !== undefined };
}

/**
 * The replies to reopen on, from drafts kept while the agent was elsewhere: those they were made in when
 * the status has changed since (the editor says so), else the status's own, filled in as the page is now.
 */
function reopenOn(kept: KeptDrafts | undefined, now: ShownReplies): ShownReplies | undefined {
  if (!kept) return undefined;
  return holdsEdits(kept.drafts, kept.madeFor) && !sameReplies(kept.madeFor, now) ? kept.madeFor : undefined;
}

interface EditorState {
  /** The replies to open on: the status's, or those the agent's kept edits were made in. */
  opened: ShownReplies;
  drafts: Drafts;
  /** Changes the drafts, made in the replies `shown`. */
  setDrafts: (update: (drafts: Drafts) => Drafts, shown: ShownReplies) => void;
  /** Copied, or closed without (with the replies it showed, to reopen on them when they hold edits). */
  onDone: (copied: boolean, shown?: ShownReplies) => void;
}

function ReplyEditor({ onDone, opened, drafts, setDrafts, ...props }: ReplyEditorProps & EditorState) {
  const { user, ids } = props;
  // The replies as the editor opened with them: a live change of status while it is open does not swap
  // the agent's text for another template's; it is said, and taken only when they choose it.
  const [shown, setShown] = useState(opened);
  const { replies } = shown;
  const [frame, setFrame] = useState<ReplyFrame>(() => loadReplyFrame(user));
  // Reopened on edits kept from before: the template they were made in.
  const [chosen, setChosen] = useState(() =>
    Math.max(
      0,
      replies.findIndex((reply) => drafts[draftSlot(shown.status, reply.template)] !== undefined),
    ),
  );
  const { copy, problem, busy, ended, waiting } = useCopy(props, onDone);
  const now: ShownReplies = { status: props.status, replies: props.replies };
  const textId = useId();
  const textBox = useRef<HTMLTextAreaElement>(null);
  const reply = replies[chosen] ?? replies[0]!;
  const slot = draftSlot(shown.status, reply.template);
  const text = drafts[slot] ?? framed(reply.reply ?? '', frame);
  const setText = (next: string) => setDrafts((all) => ({ ...all, [slot]: next }), shown);
  const saveFrame = (next: ReplyFrame) => {
    setDrafts((all) => Object.fromEntries(Object.entries(all).map(([key, draft]) => [key, reframed(draft, frame, next)])), shown);
    setFrame(next);
  };

  return (
    <ModalDialog title="Reply to the customer" onClose={() => onDone(false, shown)} testId="reply-editor">
      {ended && (
        <SessionEndedNotice
          user={user}
          kept={
            waiting
              ? 'Your reply is kept here, and is copied as soon as you have signed in again.'
              : 'Your reply is kept here: sign in again to copy it.'
          }
        />
      )}
      <p className="mb-3 text-sm text-slate-600">
        Filled in from {replyName(reply, shown.status)}
        {replies.length > 1 ? ` (${reply.name})` : ''}. Read it, change what you need, then copy it: nothing is copied until you do.
      </p>
      <StatusChanged
        shown={shown}
        now={now}
        notes={props.notes}
        onUse={() => {
          setShown(now);
          setChosen(0);
          // The button goes with its notice: the focus goes to the new text, not to the page behind (UX review).
          textBox.current?.focus();
        }}
      />
      {replies.length > 1 && <TemplateChoice replies={replies} chosen={chosen} onChoose={setChosen} />}
      {reply.note && (
        <p className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          Internal note (not copied): {reply.note}
        </p>
      )}
      <label htmlFor={textId} className="mb-1 block text-sm font-medium text-slate-700">
        Reply
      </label>
      <textarea
        id={textId}
        ref={textBox}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={9}
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-sans text-sm text-slate-900 focus-ring"
      />
      {drafts[slot] !== undefined && <KeptEdits onRestart={() => setDrafts(({ [slot]: _restarted, ...others }) => others, shown)} />}
      {user !== undefined && <ReplyFrameFields user={user} frame={frame} ids={ids} onSaved={saveFrame} />}
      {problem && !ended && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <CopyButtons
        key={shown.status}
        shown={shown}
        now={now}
        notes={props.notes}
        disabled={busy || waiting || text.trim() === ''}
        onCopy={() => void copy(reply.template, text)}
        onCancel={() => onDone(false, shown)}
        onKeepEditing={() => textBox.current?.focus()}
      />
    </ModalDialog>
  );
}

/** The text below holds the agent's edits (from before, when the editor was closed without copying); the template's text is a press away. */
function KeptEdits({ onRestart }: { onRestart: () => void }) {
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700" data-testid="reply-kept-edits">
      Your edits are kept while this tab is open, until you copy the reply or sign out.
      <Button variant="secondary" size="sm" onClick={onRestart}>
        Start again from the template
      </Button>
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
