import { formatBytes } from '../../kyc/contract/bytes.ts';
import { type Ref, type RefObject, useCallback, useLayoutEffect, useImperativeHandle, useRef, useState } from 'react';
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchContentRef } from 'react-zoom-pan-pinch';
import type { ViewerPicture } from './viewer-picture.ts';

/** What the viewer's toolbar and keys do to one pane. */
export interface PaneControls {
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  actualSize(): void;
  rotate(quarterTurns: 1 | -1): void;
  panBy(dx: number, dy: number): void;
  /** Enlarged beyond the fitted view: arrow keys pan instead of changing the picture. */
  zoomed(): boolean;
}

const ZOOM_FACTOR = 1.6;
const ANIMATION_MS = 150;
const MIN_SCALE = 0.02;
const MAX_SCALE = 16;

/**
 * One picture, zoomable and pannable by wheel, pinch, drag and double click (react-zoom-pan-pinch),
 * and rotatable by quarter turns. The <img> shows the thumbnail's object URL, so nothing is fetched or
 * decoded twice; it keeps the browser's default `image-orientation: from-image`, and its natural size
 * is the EXIF-oriented one, so rotation starts from the picture as the camera meant it.
 */
export function ZoomPane({
  picture,
  controls,
  active,
  onActivate,
  hidden,
  onReveal,
  describedBy,
  position,
  rotation,
  onRotate,
}: {
  picture: ViewerPicture;
  controls: Ref<PaneControls>;
  active: boolean;
  onActivate: () => void;
  hidden: boolean;
  onReveal: () => void;
  describedBy: string;
  position?: string;
  /** The picture's turn, which the viewer keeps for it (picture-turns.ts), and how the keys turn it. */
  rotation: number;
  onRotate: (quarterTurns: 1 | -1) => void;
}) {
  const api = useRef<ReactZoomPanPinchContentRef>(null);
  const [size, setSize] = useState(picture.width && picture.height ? { width: picture.width, height: picture.height } : undefined);
  const [scale, setScale] = useState(1);
  const sideways = rotation % 180 !== 0;
  const box = size && (sideways ? { width: size.height, height: size.width } : size);

  usePaneControls(controls, api, box, onRotate, picture.loading !== undefined);

  return (
    // The caption sits under the frame, not over it: over it, it hid the bottom of the picture, on a phone
    // where the fitted picture fills the frame's width, and beside a tall picture on a wide screen.
    <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-1">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: choosing the active side by pointer; by keyboard, focusing the side's group (inside) does it. */}
      <div
        className={`relative min-h-0 min-w-0 flex-1 overflow-hidden rounded-md bg-slate-800 ${active ? 'ring-2 ring-sky-400' : 'ring-1 ring-slate-600'}`}
        onPointerDown={onActivate}
        onFocus={onActivate}
        data-pane={picture.name}
        data-active={active}
      >
        <TransformWrapper
          ref={api}
          minScale={MIN_SCALE}
          maxScale={MAX_SCALE}
          centerOnInit
          centerZoomedOut
          limitToBounds
          keyboard={{ disabled: true }}
          // A preview is not zoomed: zoom waits for the full picture.
          disabled={picture.loading !== undefined}
          onTransform={(_, state) => setScale(state.scale)}
        >
          <TransformComponent
            // The library's own stylesheet is not loaded (see vite.config.ts): its rules are here.
            wrapperClass="overflow-hidden select-none [-webkit-touch-callout:none]"
            contentClass="origin-top-left"
            wrapperStyle={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
            wrapperProps={{
              tabIndex: 0,
              role: 'group',
              'aria-label': `${position ? `${position}: ` : ''}${picture.label}, ${Math.round(scale * 100)} %${rotation ? `, turned ${rotation}°` : ''}`,
              'aria-describedby': describedBy,
              className: 'focus-ring-dark-inset',
            }}
            contentStyle={{ position: 'relative', width: box?.width, height: box?.height }}
          >
            <img
              src={picture.url}
              alt={picture.alt}
              draggable={false}
              className="pointer-events-none"
              data-rotation={rotation}
              onLoad={(event) => {
                const img = event.currentTarget;
                if (!size) setSize({ width: img.naturalWidth, height: img.naturalHeight });
              }}
              style={{
                position: 'absolute',
                left: '50%',
                top: '50%',
                width: size?.width,
                height: size?.height,
                maxWidth: 'none',
                transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
                filter: hidden ? 'blur(28px)' : undefined,
                visibility: size ? 'visible' : 'hidden',
              }}
            />
          </TransformComponent>
        </TransformWrapper>
        <PaneOverlay picture={picture} hidden={hidden} onReveal={onReveal} />
      </div>
      <p className="truncate text-xs text-slate-300" aria-hidden="true">
        {position ? `${position} · ` : ''}
        {picture.label} · {Math.round(scale * 100)} %{rotation ? ` · ${rotation}°` : ''}
      </p>
    </div>
  );
}

type Size = { width: number; height: number };

/** The pane's controls for the toolbar and keys, and a fitted view whenever its box changes. */
function usePaneControls(
  controls: Ref<PaneControls>,
  api: RefObject<ReactZoomPanPinchContentRef | null>,
  box: Size | undefined,
  rotate: (quarterTurns: 1 | -1) => void,
  /** A preview is shown: zooming waits for the full picture. */
  frozen: boolean,
) {
  const fitScale = useCallback(() => {
    const wrapper = api.current?.instance.wrapperComponent;
    if (!wrapper || !box) return 1;
    return Math.min(wrapper.clientWidth / box.width, wrapper.clientHeight / box.height);
  }, [api, box]);

  // A step counts from where the previous one is heading, so that "+" then "-" in quick succession, or
  // during the animation, lands back exactly.
  const heading = useRef<number>(undefined);
  const zoomBy = useCallback(
    (factor: number) => {
      const controls = api.current;
      if (!controls || frozen) return;
      const { instance } = controls;
      const from = instance.isAnimating && heading.current !== undefined ? heading.current : instance.state.scale;
      const to = Math.min(MAX_SCALE, Math.max(MIN_SCALE, from * factor));
      heading.current = to;
      const delta = to - instance.state.scale;
      if (delta > 0) void controls.zoomIn(delta, ANIMATION_MS);
      else if (delta < 0) void controls.zoomOut(-delta, ANIMATION_MS);
    },
    [api, frozen],
  );

  useImperativeHandle(
    controls,
    () => ({
      zoomIn: () => zoomBy(ZOOM_FACTOR),
      zoomOut: () => zoomBy(1 / ZOOM_FACTOR),
      fit: () => api.current?.fitToView({ animationTime: ANIMATION_MS }),
      actualSize: () => (frozen ? undefined : api.current?.centerView(1, ANIMATION_MS)),
      rotate,
      panBy: (dx, dy) => api.current?.panBy(dx, dy, ANIMATION_MS / 2),
      zoomed: () => (api.current?.instance.state.scale ?? 0) > fitScale() * 1.02,
    }),
    [api, fitScale, zoomBy, rotate, frozen],
  );

  // A new size (the picture measured, or turned by a quarter) starts from the fitted view.
  const boxWidth = box?.width;
  const boxHeight = box?.height;
  // A layout effect: fitted in the same task as the new size is committed, so that a key pressed right
  // after Rotate (an arrow: next picture when not zoomed) never meets the old scale in the new box.
  useLayoutEffect(() => {
    const controls = api.current;
    if (!boxWidth || !boxHeight || !controls) return;
    stopEasing(controls.instance);
    controls.fitToView({ animationTime: 0 });
  }, [api, boxWidth, boxHeight]);
}

/**
 * Ends a zoom still easing ("+", "0" pressed just before). The library's instant transform leaves it
 * running, and its next frames would put the old target back over the fit: a picture turned right after
 * "+" stayed zoomed, and an arrow moved it instead of going to the next picture. A frame already queued
 * returns once `animation` is not its own (react-zoom-pan-pinch's handleSetupAnimation).
 */
function stopEasing(instance: ReactZoomPanPinchContentRef['instance']): void {
  if (instance.animationFrame !== null) cancelAnimationFrame(instance.animationFrame);
  instance.animationFrame = null;
  instance.animation = null;
  instance.isAnimating = false;
}

/** Over a preview: that the full picture is on its way, and how far. */
function WaitingForFull({ label, received, size }: { label: string; received: number; size: number }) {
  const text = `Preview shown: waiting for the full ${label.toLowerCase()}, ${formatBytes(received)} of ${formatBytes(size)}. Zoom waits for it.`;
  return (
    <div role="status" className="absolute inset-x-2 top-2 rounded bg-slate-900/85 px-2 py-1.5 text-xs text-white">
      <p>{text}</p>
      <progress
        className="mt-1 w-full"
        max={size}
        value={received}
        aria-label={`Full ${label.toLowerCase()} downloading`}
        aria-valuetext={text}
      />
    </div>
  );
}

/** Over the picture: that the full picture is on its way, and the reveal button while masked. */
function PaneOverlay({ picture, hidden, onReveal }: { picture: ViewerPicture; hidden: boolean; onReveal: () => void }) {
  return (
    <>
      {picture.loading && <WaitingForFull label={picture.label} {...picture.loading} />}
      {hidden && (
        <button
          type="button"
          onClick={onReveal}
          className="absolute top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-900 shadow focus-ring-dark"
        >
          Show the {picture.label.toLowerCase()}
        </button>
      )}
    </>
  );
}
