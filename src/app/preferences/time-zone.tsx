import { useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ZoneMode } from '../../kyc/view/time.ts';
import { ZoneContext } from '../ui/zone-mode.ts';

/**
 * Whether absolute times show in the reader's zone or in UTC. The choice is remembered in
 * localStorage: it is a display preference, never candidate data (the only thing this app stores).
 */
const STORAGE_KEY = 'candidate-lookup:time-zone';

/** Every time on the page in the other zone at once: the keyboard's way to what a time's tooltip shows. */
export const UTC_SHORTCUT = 'Alt+Shift+U';

function storedZone(): ZoneMode {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    return 'local';
  }
}

export function TimeZoneProvider({ children }: { children: ReactNode }) {
  const [zone, setZoneState] = useState<ZoneMode>(storedZone);
  const setZone = useCallback((next: ZoneMode) => {
    setZoneState(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage can be disabled; the choice then lasts for this page.
    }
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyU') {
        event.preventDefault();
        setZone(zone === 'utc' ? 'local' : 'utc');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [zone, setZone]);
  const value = useMemo(() => ({ zone, setZone }), [zone, setZone]);
  return <ZoneContext value={value}>{children}</ZoneContext>;
}

export function TimeZoneToggle({ className = '' }: { className?: string }) {
  const { zone, setZone } = useContext(ZoneContext);
  return (
    <button
      type="button"
      aria-pressed={zone === 'utc'}
      aria-label="UTC times"
      aria-keyshortcuts={UTC_SHORTCUT}
      onClick={() => setZone(zone === 'utc' ? 'local' : 'utc')}
      title={
        zone === 'utc'
          ? `Times are shown in UTC. Press to show them in your time zone. Shortcut: ${UTC_SHORTCUT}.`
          : `Times are shown in your time zone. Press to show them in UTC. Shortcut: ${UTC_SHORTCUT}.`
      }
      className={className}
    >
      {/* Below 2xl the header's one row needs the room: it says "UTC", and its name the whole. */}
      <span aria-hidden="true">◷</span> UTC<span className="max-2xl:hidden"> times</span>
    </button>
  );
}
