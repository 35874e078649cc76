import type { Role } from '../../kyc/contract/roles.ts';
import { queueHandOverOf } from '../applicants/queue-place.ts';
import { batchRowHandOverOf } from '../batch/batch-place.ts';
import { searchShortcuts } from '../lookup/use-search-shortcut.ts';
import { useLocation } from '../navigation.tsx';
import { usePageSession } from '../session/session-end.ts';
import { MASK_SHORTCUT } from '../preferences/privacy-mask.tsx';
import { UTC_SHORTCUT } from '../preferences/time-zone.tsx';
import { parseCandidatePath, QUEUE_KEYS, QUEUE_PATH, splitEnvironmentPath } from '../routes.ts';
import { ModalDialog } from '../ui/modal-dialog.tsx';
import { VIEWER_SHORTCUTS } from '../viewer/viewer-shortcuts.ts';

/** A shortcut as the dialog lists it: its keys (each a `<kbd>`; several are alternatives) and what it does. */
export interface Shortcut {
  keys: readonly string[];
  does: string;
}

const HELP_KEY = '?';

/** The status tabs of the applicants queue (applicants-tabs.tsx), as a tab list moves, and its rows (queue-focus.ts). */
const QUEUE_TABS: readonly Shortcut[] = [
  { keys: ['←', '→'], does: 'Previous or next status tab (with focus on the tabs)' },
  { keys: ['Home', 'End'], does: 'First or last status tab' },
  { keys: [QUEUE_KEYS.next, QUEUE_KEYS.previous], does: 'Next or previous row (Enter opens it)' },
];

/** A candidate opened from the queue (candidate/review-bar.tsx). */
const QUEUE_LOOP: readonly Shortcut[] = [
  { keys: [QUEUE_KEYS.next], does: 'Next candidate of the queue' },
  { keys: [QUEUE_KEYS.previous], does: 'Previous candidate of the queue' },
  { keys: [QUEUE_KEYS.back], does: 'Back to the queue, to the row of this candidate' },
];

/** A candidate opened from a batch's found row (candidate/review-bar.tsx, batch/batch-place.ts). */
const BATCH_LOOP: readonly Shortcut[] = [
  { keys: [QUEUE_KEYS.next], does: 'Next found row of the batch' },
  { keys: [QUEUE_KEYS.previous], does: 'Previous found row of the batch' },
  { keys: [QUEUE_KEYS.back], does: 'Back to the batch, to the row of this candidate' },
];

/** The list a candidate page was opened from, the only way `j`, `k` and `u` do anything there. */
export type LoopList = 'queue' | 'batch';

/** As the review bar reads it (review-bar.tsx): the hand-over in the page's history entry. */
export function loopListOf(state: unknown): LoopList | undefined {
  if (queueHandOverOf(state)) return 'queue';
  return batchRowHandOverOf(state) ? 'batch' : undefined;
}

/** Ctrl, or ⌘ on Apple's devices: the modifier the search box's key is listed with (searchShortcuts). */
const platformModifier = () => (searchShortcuts()[1]!.startsWith('⌘') ? '⌘' : 'Ctrl+');

/** Copy reply's editor (handoff/reply-editor.tsx), which support users have. */
const replyEditorKeys = (): readonly Shortcut[] => [
  { keys: [`${platformModifier()}Enter`], does: 'Copy the reply, as Copy does (in the reply text)' },
];

/**
 * The shortcuts of the page at `pathname`, in groups; `signedIn`: the header's search box and switches
 * are there; `from`: the list the candidate was opened from, the only way `j`, `k` and `u` do anything;
 * `role`: support users see no pictures (no viewer's keys) and have the reply editor.
 */
export function shortcutsFor(
  pathname: string,
  signedIn: boolean,
  from?: LoopList,
  role?: Role,
): Array<{ title: string; shortcuts: readonly Shortcut[] }> {
  const everywhere: Shortcut[] = [{ keys: [HELP_KEY], does: 'This list of shortcuts' }];
  if (signedIn) {
    everywhere.push(
      { keys: searchShortcuts(), does: 'Go to the search box' },
      { keys: [MASK_SHORTCUT], does: 'Privacy mask on or off' },
      { keys: [UTC_SHORTCUT], does: 'Times in UTC or in your time zone (what a time shows on hover)' },
    );
  }
  everywhere.push({ keys: ['Esc'], does: 'Close a dialog' });
  const groups: Array<{ title: string; shortcuts: readonly Shortcut[] }> = [{ title: 'On every page', shortcuts: everywhere }];
  // The page's own path, in whichever environment (`/e/<name>/…`).
  const { path } = splitEnvironmentPath(pathname);
  if (signedIn && parseCandidatePath(path)?.id !== undefined) {
    if (from === 'queue') groups.push({ title: 'A candidate opened from the queue', shortcuts: QUEUE_LOOP });
    if (from === 'batch') groups.push({ title: 'A candidate opened from a batch', shortcuts: BATCH_LOOP });
    if (role === 'support') groups.push({ title: 'In the reply editor', shortcuts: replyEditorKeys() });
    else groups.push({ title: 'In the picture viewer', shortcuts: VIEWER_SHORTCUTS });
  }
  if (signedIn && path === QUEUE_PATH) groups.push({ title: 'In the applicants queue', shortcuts: QUEUE_TABS });
  return groups;
}

/**
 * The list of the shortcuts of the page it is on, in a dialog; Escape or Close closes it. Fetched the
 * first time `?` asks for it (keyboard-help-key.tsx): it is not part of the first load.
 */
export function KeyboardHelpDialog({ signedIn, onClose }: { signedIn: boolean; onClose: () => void }) {
  const { pathname, state } = useLocation();
  const from = loopListOf(state);
  const role = usePageSession()?.role;
  return (
    <ModalDialog title="Keyboard shortcuts" onClose={onClose} testId="keyboard-help">
      {shortcutsFor(pathname, signedIn, from, role).map((group) => (
        <section key={group.title} className="mb-4">
          <h3 className="mb-1 text-sm font-semibold text-slate-700">{group.title}</h3>
          <dl className="grid grid-cols-[minmax(7rem,max-content)_1fr] gap-x-4 gap-y-1 text-sm">
            {group.shortcuts.map((shortcut) => (
              <div key={shortcut.does} className="contents">
                <dt className="flex flex-wrap items-center gap-1">
                  {shortcut.keys.map((key, index) => (
                    <span key={key} className="inline-flex items-center gap-1">
                      {index > 0 && <span className="text-slate-500">or</span>}
                      <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-900">
                        {key}
                      </kbd>
                    </span>
                  ))}
                </dt>
                <dd className="text-slate-800">{shortcut.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="flex justify-end">
        <CloseButton />
      </div>
    </ModalDialog>
  );
}

/** Closes the dialog it is in (the dialog's close event tells KeyboardHelp). */
function CloseButton() {
  return (
    <button
      type="button"
      onClick={(event) => event.currentTarget.closest('dialog')?.close()}
      className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-ring-offset"
    >
      Close
    </button>
  );
}
