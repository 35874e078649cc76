import { createContext, useCallback, useContext, useEffect, useMemo, useState, type FocusEvent, type ReactNode } from 'react';

/**
 * Screen-share mask: pictures blurred, date of birth, address, phone and e-mail replaced by a
 * placeholder. Masked values are not rendered at all, so neither a screen reader nor a copy of the
 * page finds them. One item shows while it has focus, or for good once clicked; turning the mask
 * off shows everything. Kept in memory only.
 */
export const MASK_SHORTCUT = 'Alt+Shift+M';

interface MaskState {
  masked: boolean;
  setMasked: (masked: boolean) => void;
}

const MaskContext = createContext<MaskState>({ masked: false, setMasked: () => {} });

/** `defaultOn` is PRIVACY_MASK_DEFAULT from the server; undefined while that is not known yet (masked, to be safe). */
export function PrivacyMaskProvider({ defaultOn, children }: { defaultOn: boolean | undefined; children: ReactNode }) {
  const [choice, setChoice] = useState<boolean>();
  const masked = choice ?? defaultOn ?? true;
  const setMasked = useCallback((next: boolean) => setChoice(next), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyM') {
        event.preventDefault();
        setChoice(!masked);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [masked]);

  const value = useMemo(() => ({ masked, setMasked }), [masked, setMasked]);
  return <MaskContext value={value}>{children}</MaskContext>;
}

export function usePrivacyMask(): MaskState {
  return useContext(MaskContext);
}

export function PrivacyMaskToggle({ className = '' }: { className?: string }) {
  const { masked, setMasked } = usePrivacyMask();
  return (
    <button
      type="button"
      aria-pressed={masked}
      aria-label="Privacy mask"
      aria-keyshortcuts={MASK_SHORTCUT}
      onClick={() => setMasked(!masked)}
      title={`${masked ? 'Pictures and contact details are masked.' : 'Mask pictures and contact details before sharing your screen.'} Shortcut: ${MASK_SHORTCUT}.`}
      className={className}
    >
      {/* Below 2xl the header's one row needs the room: it says "Mask", and its name the whole. */}
      <span aria-hidden="true">{masked ? '◉' : '○'}</span> <span className="max-2xl:hidden">Privacy mask</span>
      <span className="2xl:hidden">Mask</span>
    </button>
  );
}

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
