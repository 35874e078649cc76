import { useCallback, useEffect, useState } from 'react';

/**
 * A word on what just happened ("Copied"), said beside a button and gone again after `ms`: the one timer
 * of every copy button. Each `show` starts its own wait, so a second copy is not cut short by the first
 * one's timer, and no timer outlives the component. `{ stays: true }` keeps a state until the next `show`
 * (a failure the reader must have time to read). `rest` is the state it goes back to, read once.
 */
export function useFlash<T>(rest: T, ms: number): [T, (state: T, options?: { stays?: boolean }) => void] {
  const [initial] = useState(rest);
  const [flash, setFlash] = useState({ state: initial, fades: false });
  useEffect(() => {
    if (!flash.fades) return;
    const timer = setTimeout(() => setFlash({ state: initial, fades: false }), ms);
    return () => clearTimeout(timer);
  }, [flash, initial, ms]);
  const show = useCallback((state: T, options: { stays?: boolean } = {}) => setFlash({ state, fades: options.stays !== true }), []);
  return [flash.state, show];
}
