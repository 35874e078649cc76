import { createContext, useCallback, useContext, useMemo, useState, type FocusEvent, type ReactNode } from 'react';
import { usePrivacyMask } from './privacy-mask.tsx';

/**
 * What the privacy mask (privacy-mask.tsx) lets a reviewer show of one candidate page: an item while it
 * has focus, or for good once clicked. Apart from the mask's switch, which every page's header has: only a
 * candidate page reveals, so this is loaded with it, not with the first page.
 */

const RevealContext = createContext<{ revealed: ReadonlySet<string>; reveal: (key: string) => void }>({
  revealed: new Set(),
  reveal: () => {},
});

const NOTHING_REVEALED: ReadonlySet<string> = new Set();

/** What the reviewer chose to show, for one candidate page; forgotten when the mask is switched. */
export function RevealScope({ children }: { children: ReactNode }) {
  const { masked } = usePrivacyMask();
  const [revealed, setRevealed] = useState<{ masked: boolean; keys: ReadonlySet<string> }>({ masked, keys: new Set() });
  // Switching the mask starts over: everything hidden again the next time it is turned on. Forgotten in
  // state, not only ignored while it differs: off then on again must not bring the old reveals back.
  if (revealed.masked !== masked) setRevealed({ masked, keys: new Set() });
  const keys = revealed.masked === masked ? revealed.keys : NOTHING_REVEALED;
  const reveal = useCallback(
    (key: string) => setRevealed((r) => ({ masked, keys: new Set([...(r.masked === masked ? r.keys : []), key]) })),
    [masked],
  );
  const value = useMemo(() => ({ revealed: keys, reveal }), [keys, reveal]);
  return <RevealContext value={value}>{children}</RevealContext>;
}

/** Hidden unless clicked to show (no focus peeking): for the viewer, whose panes hold focus to take keys. */
export function usePinnedReveal(): { isHidden: (key: string) => boolean; reveal: (key: string) => void } {
  const { masked } = usePrivacyMask();
  const { revealed, reveal } = useContext(RevealContext);
  return { isHidden: (key) => masked && !revealed.has(key), reveal };
}

/** Whether `key` is hidden now, and what reveals it: focus (while it lasts) or a click (for good). */
export function useMaskedItem(key: string) {
  const { masked } = usePrivacyMask();
  const { revealed, reveal } = useContext(RevealContext);
  const [peeking, setPeeking] = useState(false);
  const pinned = revealed.has(key);
  return {
    hidden: masked && !pinned && !peeking,
    /** Shown for good by a click, until the mask is switched. */
    pinned,
    reveal: () => reveal(key),
    onFocus: () => setPeeking(true),
    onBlur: (event: FocusEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setPeeking(false);
    },
  };
}

/**
 * A value hidden by the mask. While hidden, the placeholder is a focusable button naming what it
 * hides; once shown, the value is rendered as usual in the same focusable box, so focus stays put.
 */
export function Masked({
  maskKey,
  label,
  block = false,
  children,
}: {
  maskKey: string;
  label: string;
  block?: boolean;
  children: ReactNode;
}) {
  const item = useMaskedItem(maskKey);
  const { masked } = usePrivacyMask();
  const Box = block ? 'div' : 'span';
  if (!masked) return <>{children}</>;
  return (
    <Box
      data-masked={item.hidden ? 'hidden' : 'shown'}
      tabIndex={item.pinned ? undefined : 0}
      role={item.hidden ? 'button' : undefined}
      aria-label={item.hidden ? `${label}: hidden by the privacy mask, press to show` : undefined}
      onFocus={item.onFocus}
      onBlur={item.onBlur}
      onClick={item.reveal}
      onKeyDown={(event) => {
        if (item.hidden && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          item.reveal();
        }
      }}
      className={`rounded focus-ring-offset ${
        item.hidden ? 'inline-flex cursor-pointer items-center gap-1 bg-slate-200 px-1.5 text-slate-600 select-none' : ''
      } ${block ? 'block' : ''}`}
    >
      {item.hidden ? (
        <>
          <span aria-hidden="true" className="print:hidden">
            ••••••
          </span>
          <span aria-hidden="true" className="text-xs print:hidden">
            hidden
          </span>
          <span aria-hidden="true" className="hidden print:inline">
            masked
          </span>
        </>
      ) : (
        children
      )}
    </Box>
  );
}
