import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/**
 * Screen-share mask: pictures blurred, date of birth, address, phone and e-mail replaced by a
 * placeholder, and so is each value of "Other fields in this response" (a field no section reads may be personal). Masked values are not rendered at all, so neither a screen reader nor a copy of the
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
