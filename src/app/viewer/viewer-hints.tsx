/**
 * What the viewer tells its user under the pictures: the keys, or on a touch screen the gestures.
 *
 * On a short screen (200 % zoom, a phone held sideways) the three lines of keys took the pictures' room
 * (Compare's were about 100 px tall): they are read out still, and `?` lists them (keyboard-help.tsx).
 * On a touch screen (`pointer: coarse`) the keys were explained to someone with no keyboard: it names
 * what the pane does under a finger instead (react-zoom-pan-pinch, zoom-pane.tsx: pinch, a double tap
 * zooms in, a drag pans a zoomed picture) and the buttons for the rest. The keys stay the dialog's
 * description for a screen reader, whose user may well have a keyboard.
 */
export function ViewerHints({ id, comparing }: { id: string; comparing: boolean }) {
  return (
    <>
      <p id={id} className="text-xs text-slate-300 pointer-coarse:sr-only [@media(height<36rem)]:sr-only">
        Drag or use the arrow keys to move a zoomed picture. Keys: + and − zoom, 0 fits, 1 shows actual size, R rotates, ← and → change the
        picture when not zoomed, Esc closes.
        {comparing ? ' The toolbar and keys act on the highlighted side; click a side to choose it.' : ''}
      </p>
      <p aria-hidden="true" className="hidden text-xs text-slate-300 [@media(height<36rem)_and_(not_(pointer:coarse))]:block">
        Press ? for the keys.
      </p>
      <p className="hidden text-xs text-slate-300 pointer-coarse:block" data-testid="viewer-gestures">
        Pinch or double-tap to zoom, drag to move a zoomed picture. The buttons above turn it, fit it and change the picture.
        {comparing ? ' They act on the highlighted side; tap a side to choose it.' : ''}
      </p>
    </>
  );
}
