import type { ReactNode } from 'react';
import type { PaneControls } from './zoom-pane.tsx';

const toolClass =
  'inline-flex h-9 min-w-9 items-center justify-center gap-1 rounded-md border border-slate-600 bg-slate-800 px-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-40 aria-pressed:bg-sky-700 aria-pressed:border-sky-400 focus-ring-dark';

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

/** The viewer's buttons, each with its key; they act on the pane `pane()` returns. */
export function ViewerToolbar({
  title,
  view,
  pane,
  close,
}: {
  title: string;
  view: { count: number; comparing: boolean; canCompare: boolean; step: (delta: number) => void; toggleCompare: () => void };
  pane: () => PaneControls | null;
  close: () => void;
}) {
  // In Compare a side pages past the other side's picture: with two pictures, it has none to go to.
  const canStep = view.count > (view.comparing ? 2 : 1);
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Picture tools">
      <p className="mr-auto min-w-0 truncate text-sm font-medium">{title}</p>
      <Tool label="Previous picture" keys="ArrowLeft" onClick={() => view.step(-1)} disabled={!canStep}>
        ‹
      </Tool>
      <Tool label="Next picture" keys="ArrowRight" onClick={() => view.step(1)} disabled={!canStep}>
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
      <Tool label="Compare" onClick={view.toggleCompare} pressed={view.comparing} disabled={!view.canCompare}>
        ◫ <span className="hidden sm:inline">Compare</span>
      </Tool>
      <Tool label="Close" keys="Escape" onClick={close}>
        ✕
      </Tool>
    </div>
  );
}
