/**
 * The picture viewer's keys as the keyboard help lists them: what document-viewer.tsx's viewerKeys and
 * applyKey answer, and the toolbar's titles say.
 */
export const VIEWER_SHORTCUTS = [
  { keys: ['←', '→'], does: 'Previous or next picture (moves a zoomed picture instead)' },
  { keys: ['↑', '↓'], does: 'Move a zoomed picture up or down' },
  { keys: ['+', '−'], does: 'Zoom in or out' },
  { keys: ['0'], does: 'Fit the picture' },
  { keys: ['1'], does: 'Actual size' },
  { keys: ['R', 'Shift+R'], does: 'Rotate clockwise or back' },
  { keys: ['Esc'], does: 'Close the viewer' },
] as const;
