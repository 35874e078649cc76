import { createContext, useContext } from 'react';
import type { ZoneMode } from '../../kyc/view/time.ts';

/**
 * The zone every time on a page is shown in, and how to change it. The context lives with the
 * primitives that read it (TimeStamp); the preference that fills it (preferences/time-zone.tsx) sits above.
 */
export const ZoneContext = createContext<{ zone: ZoneMode; setZone: (zone: ZoneMode) => void }>({ zone: 'local', setZone: () => {} });

export function useZoneMode(): ZoneMode {
  return useContext(ZoneContext).zone;
}
