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
  /** Masked only because the server's default is not known yet (nor chosen here): it may turn off by itself once it is. */
  pending?: boolean;
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

  const pending = choice === undefined && defaultOn === undefined;
  const value = useMemo(() => ({ masked, setMasked, pending }), [masked, setMasked, pending]);
  return <MaskContext value={value}>{children}</MaskContext>;
}

export function usePrivacyMask(): MaskState {
  return useContext(MaskContext);
}

/**
 * The header's toggle. While the server's default is not known (a slow first answer), the page is masked
 * to be safe, and the toggle says so as a state of its own, dimmed and busy ("masked until this server's
 * setting is known"), rather than pressed: a pressed toggle that let go by itself once the page loaded read
 * as the mask turning off on its own (UX review). It can be pressed all the same.
 */
export function PrivacyMaskToggle({ className = '' }: { className?: string }) {
  const { masked, setMasked, pending } = usePrivacyMask();
  const state = pending
    ? "Masked until this server's setting is known."
    : masked
      ? 'Pictures and contact details are masked.'
      : 'Mask pictures and contact details before sharing your screen.';
  return (
    <button
      type="button"
      aria-pressed={masked}
      aria-busy={pending || undefined}
      aria-label="Privacy mask"
      aria-keyshortcuts={MASK_SHORTCUT}
      onClick={() => setMasked(!masked)}
      title={`${state} Shortcut: ${MASK_SHORTCUT}.`}
      className={`${className}${pending ? ' opacity-60' : ''}`}
    >
      {/* Below 2xl the header's one row needs the room: it says "Mask", and its name the whole. */}
      <span aria-hidden="true">{masked ? '◉' : '○'}</span> <span className="max-2xl:hidden">Privacy mask</span>
      <span className="2xl:hidden">Mask</span>
    </button>
  );
}
