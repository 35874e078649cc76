import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { compareCounterpart } from '../../kyc/view/attributes.ts';
import { usePinnedReveal } from '../preferences/privacy-reveal.tsx';
import { useWorkSession } from '../session/session-end.ts';
import { SessionEndedNotice } from '../session/session-ended-notice.tsx';
import { DialogNotices } from '../ui/dialog-notices.tsx';
import { usePictureTurns } from './picture-turns.ts';
import type { ViewerPicture } from './viewer-picture.ts';
import { ViewerHints } from './viewer-hints.tsx';
import { ViewerToolbar } from './viewer-toolbar.tsx';
import { ZoomPane, type PaneControls } from './zoom-pane.tsx';

const PAN_STEP = 80;
const SIDES = ['Left', 'Right'] as const;

/** The viewer's single-key shortcuts (active only while the viewer has focus); false for other keys. */
function applyKey(key: string, controls: PaneControls): boolean {
  switch (key) {
    case '+':
    case '=':
      controls.zoomIn();
      return true;
    case '-':
    case '_':
      controls.zoomOut();
      return true;
    case '0':
      controls.fit();
      return true;
    case '1':
      controls.actualSize();
      return true;
    case 'r':
      controls.rotate(1);
      return true;
    case 'R':
      controls.rotate(-1);
      return true;
    default:
      return false;
  }
}

/**
 * The picture `delta` (1 or -1) away from `from`, round the end, passing over `taken`: in Compare, the
 * picture the other side shows, so that paging one side never shows the same picture twice. With two
 * pictures there is nowhere else to go, and it stays.
 */
function stepFrom(from: number, delta: number, count: number, taken?: number): number {
  const next = (from + delta + count) % count;
  return next === taken ? (next + delta + count) % count : next;
}

/**
 * Which picture is shown, or which two side by side, and which side the keys act on. Paging wraps
 * round, and the two sides of Compare never show the same picture. Compare puts the picture shown
 * beside the one it is best held against (compareCounterpart: a picture the notes name first), the two
 * in the page's order (the selfie on the left, as its thumbnail is first), and the keys stay on the
 * picture that was shown.
 */
function useViewerPictures(pictures: ViewerPicture[], startName: string, noted: readonly string[]) {
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      pictures.findIndex((p) => p.name === startName),
    ),
  );
  const [pair, setPair] = useState<[number, number]>();
  const [active, setActive] = useState<0 | 1>(0);
  const count = pictures.length;
  const step = (delta: number) => {
    if (!pair) setIndex((i) => stepFrom(i, delta, count));
    else if (active === 0) setPair([stepFrom(pair[0], delta, count, pair[1]), pair[1]]);
    else setPair([pair[0], stepFrom(pair[1], delta, count, pair[0])]);
  };
  const toggleCompare = () => {
    if (pair) {
      setIndex(pair[active]);
      setPair(undefined);
    } else {
      const other = compareCounterpart(
        pictures.map((p) => p.name),
        index,
        noted,
      );
      if (other === undefined) return;
      setPair(index < other ? [index, other] : [other, index]);
      setActive(index < other ? 0 : 1);
    }
  };
  const choose = (side: 0 | 1, chosen: number) => {
    // The other side's picture is not offered in the list (ComparePanes); this holds whatever asks.
    if (pair && chosen !== pair[side === 0 ? 1 : 0]) setPair(side === 0 ? [chosen, pair[1]] : [pair[0], chosen]);
    setActive(side);
  };
  const shown = pair ? pictures[pair[active]]! : pictures[index]!;
  return {
    index,
    pair,
    active,
    setActive,
    shown,
    count,
    comparing: Boolean(pair),
    canCompare: count > 1,
    step,
    toggleCompare,
    choose,
  };
}

/**
 * The dialog opens modal with the shown pane focused; a pane that held focus goes when its picture
 * changes, and focus moves to the pane now shown, so that the keys keep working.
 */
function useViewerFocus(dialog: RefObject<HTMLDialogElement | null>, shownName: string, pair: unknown) {
  // Layout effect: the dialog is open (and has a size) before the panes fit their pictures.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    element.querySelector<HTMLElement>('[data-pane] [role="group"]')?.focus();
  }, [dialog]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs because the picture shown changed, which the body does not need to read.
  useEffect(() => {
    const element = dialog.current;
    if (element?.open && !element.contains(document.activeElement)) {
      element.querySelector<HTMLElement>('[data-active="true"] [role="group"]')?.focus();
    }
  }, [dialog, shownName, pair]);
}

/** The viewer's keys: arrows pan a zoomed picture or page through the pictures, the rest as applyKey. */
function viewerKeys(pane: () => PaneControls | null, step: (delta: number) => void) {
  return (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if ((event.target as HTMLElement).closest('select, input, textarea')) return;
    const controls = pane();
    if (!controls) return;
    const arrow = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
    if (arrow) {
      if (controls.zoomed()) controls.panBy(arrow[0]! * PAN_STEP, arrow[1]! * PAN_STEP);
      else if (arrow[0] !== 0) step(-arrow[0]!);
      else return;
    } else if (!applyKey(event.key, controls)) {
      return;
    }
    event.preventDefault();
  };
}

/**
 * The document viewer: one picture (or two side by side) to zoom, pan, fit, show at actual size,
 * rotate and page through, by pointer, touch or keys. Closing hands back the picture last shown, so
 * that focus can return to its thumbnail. `noted`: the pictures the candidate's notes name, which
 * Compare puts beside the picture shown first.
 */
export function DocumentViewer({
  pictures,
  startName,
  noted = [],
  onClose,
}: {
  pictures: ViewerPicture[];
  startName: string;
  noted?: readonly string[];
  onClose: (shownName: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const hintId = useId();
  const view = useViewerPictures(pictures, startName, noted);
  const turns = usePictureTurns();
  const { pair, active, shown } = view;
  const left = useRef<PaneControls>(null);
  const right = useRef<PaneControls>(null);
  const { isHidden, reveal } = usePinnedReveal();
  useViewerFocus(dialog, shown.name, pair);
  // An ended session leaves the pictures open (the page stays behind); someone else's sign-in closes them.
  const session = useWorkSession(true);
  useEffect(() => {
    if (session.state === 'other') dialog.current?.close();
  }, [session.state]);
  const pane = () => (pair && active === 1 ? right.current : left.current);

  const paneFor = (picture: ViewerPicture, side: 0 | 1, position?: string) => (
    <ZoomPane
      // A new pane once the full picture replaces its preview: its size and zoom start from the real picture (its turn is the viewer's).
      key={`${side}:${picture.name}:${picture.loading ? 'preview' : 'full'}`}
      picture={picture}
      controls={side === 0 ? left : right}
      active={!pair || active === side}
      onActivate={() => view.setActive(side)}
      hidden={isHidden(`picture:${picture.name}`)}
      onReveal={() => reveal(`picture:${picture.name}`)}
      describedBy={hintId}
      position={position}
      rotation={turns.of(picture.name)}
      onRotate={(quarterTurns) => turns.turn(picture.name, quarterTurns)}
    />
  );

  return (
    <dialog
      ref={dialog}
      aria-label={pair ? 'Compare pictures' : shown.alt}
      onClose={() => onClose(shown.name)}
      onKeyDown={viewerKeys(pane, view.step)}
      // A click on the backdrop closes it, as Escape does.
      closedby="any"
      className="m-auto flex h-[94vh] max-h-none w-[96vw] max-w-none flex-col gap-2 rounded-lg bg-slate-900 p-3 text-white shadow-2xl backdrop:bg-slate-950/80"
    >
      {/* One flex item with the toolbar: a place with no notice in it takes no gap from the pictures. */}
      <div>
        <ViewerToolbar
          title={pair ? 'Compare' : `${shown.label} · ${view.index + 1} of ${view.count}`}
          view={view}
          pane={pane}
          close={() => dialog.current?.close()}
        />
        <DialogNotices className="has-[p]:mt-2" />
      </div>
      {session.state === 'ended' && (
        <SessionEndedNotice user={session.user} kept="The pictures stay open here; sign in again before you look anything else up." />
      )}
      {pair ? (
        <ComparePanes pictures={pictures} pair={pair} choose={view.choose} paneFor={paneFor} />
      ) : (
        <div className="flex min-h-0 flex-1">{paneFor(shown, 0)}</div>
      )}
      <ViewerHints id={hintId} comparing={Boolean(pair)} />
    </dialog>
  );
}

/**
 * Two panes side by side, each with a picker of the picture it shows. The picture the other side shows
 * is listed but cannot be chosen, and says where it is.
 */
function ComparePanes({
  pictures,
  pair,
  choose,
  paneFor,
}: {
  pictures: ViewerPicture[];
  pair: [number, number];
  choose: (side: 0 | 1, chosen: number) => void;
  paneFor: (picture: ViewerPicture, side: 0 | 1, position?: string) => ReactNode;
}) {
  return (
    // Side by side wherever the screen is wider than tall: stacked at 640 x 400, each picture was about 100 px tall.
    <div className="flex min-h-0 flex-1 flex-col gap-2 landscape:flex-row md:flex-row" data-testid="compare">
      {([0, 1] as const).map((side) => {
        const other = side === 0 ? 1 : 0;
        return (
          <div key={side} className="flex min-h-0 min-w-0 flex-1 flex-col gap-1">
            <label className="flex items-center gap-2 text-sm">
              {SIDES[side]} picture
              <select
                value={pair[side]}
                onChange={(event) => choose(side, Number(event.target.value))}
                className="rounded border border-slate-600 bg-slate-800 px-2 py-1 text-white focus-ring-dark"
              >
                {pictures.map((picture, i) => (
                  <option key={picture.name} value={i} disabled={i === pair[other]}>
                    {i === pair[other] ? `${picture.label} (${SIDES[other].toLowerCase()})` : picture.label}
                  </option>
                ))}
              </select>
            </label>
            {paneFor(pictures[pair[side]]!, side, SIDES[side])}
          </div>
        );
      })}
    </div>
  );
}
