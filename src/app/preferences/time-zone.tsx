import { useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ZoneMode } from '../../kyc/view/time.ts';
import { ZoneContext } from '../ui/zone-mode.ts';

/**
 * Whether absolute times show in the reader's zone or in UTC. The choice is remembered in
 * localStorage: it is a display preference, never candidate data (the only thing this app stores).
 */
const STORAGE_KEY = 'candidate-lookup:time-zone';

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
  const value = useMemo(() => ({ zone, setZone }), [zone, setZone]);
  return <ZoneContext value={value}>{children}</ZoneContext>;
}

export function TimeZoneToggle({ className = '' }: { className?: string }) {
  const { zone, setZone } = useContext(ZoneContext);
  return (
    <button
      type="button"
      aria-pressed={zone === 'utc'}
      onClick={() => setZone(zone === 'utc' ? 'local' : 'utc')}
      title={
        zone === 'utc'
          ? 'Times are shown in UTC. Press to show them in your time zone.'
          : 'Times are shown in your time zone. Press to show them in UTC.'
      }
      className={className}
    >
      <span aria-hidden="true">◷</span> UTC times
    </button>
  );
}
