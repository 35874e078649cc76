import { useEffect, useId, useState } from 'react';
import type { FilledReply } from '../../kyc/contract/replies.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/modal-dialog.tsx';

/**
 * Copy reply: a small editor with the reply filled in from the status's template, which the agent reads
 * and edits before anything is copied. Copy records the hand-off first (its audit line names the
 * template, never the text: `record`), then puts the edited text on the clipboard; Cancel copies
 * nothing. What came of it is said beside the button (for screen readers too).
 */
export function ReplyAction({ reply, record }: { reply: FilledReply; record: (template: string) => Promise<void> }) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 3000);
    return () => clearTimeout(timer);
  }, [copied]);
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
          reply={reply}
          record={record}
          onDone={(done) => {
            setOpen(false);
            // A close after the copy (the dialog's own close event) must not take "copied" back.
            if (done) setCopied(true);
          }}
        />
      )}
    </span>
  );
}

function ReplyEditor({
  reply,
  record,
  onDone,
}: {
  reply: FilledReply;
  record: (template: string) => Promise<void>;
  onDone: (copied: boolean) => void;
}) {
  const [text, setText] = useState(reply.reply ?? '');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const textId = useId();
  const from = reply.template === '*' ? 'the general reply' : `the reply for ${statusInfo(reply.template).label}`;

  const copy = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await record(reply.template);
    } catch (error) {
      setBusy(false);
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

  return (
    <ModalDialog title="Reply to the customer" onClose={() => onDone(false)} testId="reply-editor">
      <p className="mb-3 text-sm text-slate-600">
        Filled in from {from}. Read it, change what you need, then copy it: nothing is copied until you do.
      </p>
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
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={9}
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-sans text-sm text-slate-900 focus-ring"
      />
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onDone(false)}>
          Cancel
        </Button>
        <Button onClick={copy} disabled={busy || text.trim() === ''}>
          Copy
        </Button>
      </div>
    </ModalDialog>
  );
}
