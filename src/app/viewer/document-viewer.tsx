import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { comparePair } from '../../kyc/view/attributes.ts';
import { usePinnedReveal } from '../preferences/privacy-mask.tsx';
import type { ViewerPicture } from './viewer-picture.ts';
import { ZoomPane, type PaneControls } from './zoom-pane.tsx';

const PAN_STEP = 80;
const SIDES = ['Left', 'Right'] as const;

const toolClass =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border border-slate-600 bg-slate-800 px-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-40 aria-pressed:bg-sky-700 aria-pressed:border-sky-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300';

function Tool({
  label,
  keys,
  onClick,
  disabled,
  pressed,
  children,
}: {
  label: string;
  keys?: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      aria-keyshortcuts={keys}
      aria-pressed={pressed}
      title={keys ? `${label} (${keys})` : label}
      onClick={onClick}
      disabled={disabled}
      className={toolClass}
    >
      {children}
    </button>
  );
}

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
 * The document viewer: one picture (or two side by side) to zoom, pan, fit, show at actual size,
 * rotate and page through, by pointer, touch or keys. Closing hands back the picture last shown, so
 * that focus can return to its thumbnail.
 */
export function DocumentViewer({
  pictures,
  startName,
  onClose,
}: {
  pictures: ViewerPicture[];
  startName: string;
  onClose: (shownName: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const hintId = useId();
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      pictures.findIndex((p) => p.name === startName),
    ),
  );
  const [pair, setPair] = useState<[number, number]>();
  const [active, setActive] = useState<0 | 1>(0);
  const left = useRef<PaneControls>(null);
  const right = useRef<PaneControls>(null);
  const { isHidden, reveal } = usePinnedReveal();
  const defaultPair = comparePair(pictures.map((p) => p.name));

  // Layout effect: the dialog is open (and has a size) before the panes fit their pictures.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    element.querySelector<HTMLElement>('[data-pane] [role="group"]')?.focus();
  }, []);

  const count = pictures.length;
  const shown = pair ? pictures[pair[active]]! : pictures[index]!;

  // A pane that held focus goes when its picture changes: focus moves to the pane now shown, so that
  // the keys keep working.
  const shownName = shown.name;
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs because the picture shown changed, which the body does not need to read.
  useEffect(() => {
    const element = dialog.current;
    if (element?.open && !element.contains(document.activeElement)) {
      element.querySelector<HTMLElement>('[data-active="true"] [role="group"]')?.focus();
    }
  }, [shownName, pair]);
  const pane = () => (pair && active === 1 ? right.current : left.current);
  const step = (delta: number) => {
    const move = (i: number) => (i + delta + count) % count;
    if (pair) setPair(active === 0 ? [move(pair[0]), pair[1]] : [pair[0], move(pair[1])]);
    else setIndex(move);
  };
  const toggleCompare = () => {
    if (pair) {
      setIndex(pair[active]);
      setPair(undefined);
    } else if (defaultPair) {
      setPair(defaultPair);
      setActive(0);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
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

  const paneFor = (picture: ViewerPicture, side: 0 | 1, position?: string) => (
    <ZoomPane
      key={`${side}:${picture.name}`}
      picture={picture}
      controls={side === 0 ? left : right}
      active={!pair || active === side}
      onActivate={() => setActive(side)}
      hidden={isHidden(`picture:${picture.name}`)}
      onReveal={() => reveal(`picture:${picture.name}`)}
      describedBy={hintId}
      position={position}
    />
  );

  return (
    <dialog
      ref={dialog}
      aria-label={pair ? 'Compare pictures' : shown.alt}
      onClose={() => onClose(shown.name)}
      onKeyDown={onKeyDown}
      // A click on the backdrop closes it, as Escape does.
      closedby="any"
      className="m-auto flex h-[94vh] max-h-none w-[96vw] max-w-none flex-col gap-2 rounded-lg bg-slate-900 p-3 text-white shadow-2xl backdrop:bg-slate-950/80"
    >
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Picture tools">
        <p className="mr-auto min-w-0 truncate text-sm font-medium">{pair ? 'Compare' : `${shown.label} · ${index + 1} of ${count}`}</p>
        <Tool label="Previous picture" keys="ArrowLeft" onClick={() => step(-1)} disabled={count < 2}>
          ‹
        </Tool>
        <Tool label="Next picture" keys="ArrowRight" onClick={() => step(1)} disabled={count < 2}>
          ›
        </Tool>
        <Tool label="Zoom out" keys="-" onClick={() => pane()?.zoomOut()}>
          −
        </Tool>
        <Tool label="Zoom in" keys="+" onClick={() => pane()?.zoomIn()}>
          +
        </Tool>
        <Tool label="Fit" keys="0" onClick={() => pane()?.fit()}>
          Fit
        </Tool>
        <Tool label="Actual size" keys="1" onClick={() => pane()?.actualSize()}>
          1:1
        </Tool>
        <Tool label="Rotate" keys="R" onClick={() => pane()?.rotate(1)}>
          ⟳
        </Tool>
        <Tool label="Compare" onClick={toggleCompare} pressed={Boolean(pair)} disabled={!defaultPair}>
          ◫ <span className="hidden sm:inline">Compare</span>
        </Tool>
        <Tool label="Close" keys="Escape" onClick={() => dialog.current?.close()}>
          ✕
        </Tool>
      </div>
      {pair ? (
        <div className="flex min-h-0 flex-1 flex-col gap-2 md:flex-row" data-testid="compare">
          {([0, 1] as const).map((side) => (
            <div key={side} className="flex min-h-0 min-w-0 flex-1 flex-col gap-1">
              <label className="flex items-center gap-2 text-sm">
                {SIDES[side]} picture
                <select
                  value={pair[side]}
                  onChange={(event) => {
                    const chosen = Number(event.target.value);
                    setPair(side === 0 ? [chosen, pair[1]] : [pair[0], chosen]);
                    setActive(side);
                  }}
                  className="rounded border border-slate-600 bg-slate-800 px-2 py-1 text-white focus-visible:outline-2 focus-visible:outline-sky-300"
                >
                  {pictures.map((picture, i) => (
                    <option key={picture.name} value={i}>
                      {picture.label}
                    </option>
                  ))}
                </select>
              </label>
              {paneFor(pictures[pair[side]]!, side, SIDES[side])}
            </div>
          ))}
        </div>
      ) : (
        <div className="flex min-h-0 flex-1">{paneFor(shown, 0)}</div>
      )}
      <p id={hintId} className="text-xs text-slate-300">
        Drag or use the arrow keys to move a zoomed picture. Keys: + and − zoom, 0 fits, 1 shows actual size, R rotates, ← and → change the
        picture when not zoomed, Esc closes.
        {pair ? ' The toolbar and keys act on the highlighted side; click a side to choose it.' : ''}
      </p>
    </dialog>
  );
}
