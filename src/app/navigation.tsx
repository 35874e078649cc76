import {
  type AnchorHTMLAttributes,
  createContext,
  type ReactNode,
  type Ref,
  startTransition,
  use,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/**
 * The app's history: the address and the state of the entry shown, a navigate and links. Not a router
 * library: the route table (app.tsx) matches the raw pathname itself, so a router's matching is not
 * used; React Router weighed 11 kB of the first load's gzip for the rest, and wouter, the small one,
 * hands out its pathname through decodeURI, in which an id's `%25` has become a `%` that means
 * something else (`%2541`, the id "%41", would be read as "A").
 */
export interface AppLocation {
  /** As the address bar has it: still percent-encoded. */
  pathname: string;
  /** With its `?`, or empty. */
  search: string;
  hash: string;
  /** What the page that navigated here left in the history entry (see routes.ts), or null. */
  state: unknown;
}

export interface NavigateOptions {
  /** Replace the history entry shown rather than add one (Back skips what it replaced). */
  replace?: boolean;
  state?: unknown;
}

const LocationContext = createContext<AppLocation | undefined>(undefined);

/** `pushState` and `replaceState` fire no event: the app's own navigations tell the history themselves. */
const listeners = new Set<() => void>();

function currentLocation(): AppLocation {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: window.history.state as unknown };
}

function sameEntry(a: AppLocation, b: AppLocation): boolean {
  return a.pathname === b.pathname && a.search === b.search && a.hash === b.hash && a.state === b.state;
}

/** How the last change of entry came: the app's own navigation (added or replaced an entry), or Back and Forward. */
let lastChange: 'push' | 'replace' | 'pop' = 'pop';

/** Shows `to` (a path of this app, with its search) as a new history entry, or in place of this one. */
export function navigate(to: string, { replace = false, state = null }: NavigateOptions = {}): void {
  window.history[replace ? 'replaceState' : 'pushState'](state, '', to);
  lastChange = replace ? 'replace' : 'push';
  for (const listener of listeners) listener();
}

/**
 * A page opened by the app (a link, Next, a queue row) starts at its top, as a page the browser loads
 * does: the scroll of the page before would otherwise stay, and on a phone the next candidate opened
 * halfway down, its name and its Previous/Next above the screen. Also a page put in place of this one
 * (Next and Previous replace the entry); an entry replaced with the same page (a tab, a filter) keeps its
 * place, and Back is left to the browser and the pages that restore their own (the queue's row).
 * Rendered before the page, so that a page's own restore, in the same commit, comes after it.
 */
export function ScrollToTopOnOpen(): null {
  const location = useLocation();
  const shown = useRef(location);
  useLayoutEffect(() => {
    if (location === shown.current) return;
    const before = shown.current;
    shown.current = location;
    // Another page: added, or in place of this one (the review bar's Next and Previous replace the entry).
    const opened = lastChange === 'push' || (lastChange === 'replace' && location.pathname !== before.pathname);
    if (opened && !location.hash) window.scrollTo(0, 0);
    lastChange = 'pop';
  }, [location]);
  return null;
}

/**
 * Holds the location the pages render. A change renders as a transition, as React Router did: a page
 * whose module is still loading leaves the page shown in place rather than flashing its fallback.
 */
export function BrowserHistory({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(currentLocation);
  useLayoutEffect(() => {
    // Every navigation renders anew, to the address shown too (as React Router's did): a sign-out's
    // return home finds the session it cleared gone and asks again.
    const update = () => startTransition(() => setLocation(currentLocation()));
    const back = () => {
      lastChange = 'pop';
      update();
    };
    listeners.add(update);
    window.addEventListener('popstate', back);
    // An entry pushed between the first render and this effect.
    const now = currentLocation();
    setLocation((shown) => (sameEntry(shown, now) ? shown : now));
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', back);
    };
  }, []);
  return <LocationContext value={location}>{children}</LocationContext>;
}

export function useLocation(): AppLocation {
  const location = use(LocationContext);
  if (!location) throw new Error('useLocation() is used outside <BrowserHistory>.');
  return location;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> &
  NavigateOptions & {
    to: string;
    ref?: Ref<HTMLAnchorElement>;
    /** Called when a click navigates in the app, just before it does (not when the browser opens the link elsewhere). */
    onNavigate?: () => void;
  };

/**
 * A real `<a href>`: keyboard reachable, and opened by the browser itself in a new tab or window (a
 * modifier key, the middle button, a target). A plain click navigates in the app; to the address shown,
 * it replaces the entry, as a browser does for a link to the page it is on.
 */
export function Link({ to, replace, state, onClick, onNavigate, ...props }: LinkProps) {
  const { pathname, search, hash } = useLocation();
  return (
    <a
      {...props}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
        const elsewhere = props.target !== undefined && props.target !== '_self';
        if (event.defaultPrevented || event.button !== 0 || modified || elsewhere) return;
        event.preventDefault();
        const target = new URL(to, window.location.href);
        const same = target.pathname + target.search + target.hash === pathname + search + hash;
        onNavigate?.();
        navigate(to, { replace: replace ?? same, state });
      }}
    />
  );
}
