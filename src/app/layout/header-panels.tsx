import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useLiveNotifications } from '../live/live-stream.ts';
import { OPEN_SEARCH_EVENT } from '../lookup/use-search-shortcut.ts';
import { usePrivacyMask } from '../preferences/privacy-mask.tsx';
import { useDismiss } from '../ui/use-dismiss.ts';

/** The header's buttons: the view toggles, and Search and Menu. */
export const toggleClass =
  'inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50 aria-pressed:border-blue-700 aria-pressed:bg-blue-50 aria-pressed:text-blue-900 focus-ring-offset';

/** The header's two panels on a phone: the lookup form and the menu of view toggles, each behind a button. */
export type HeaderPanel = 'search' | 'menu' | undefined;

/**
 * Where the toggles and the user fold under Menu, in a panel under the header's right end, over the page: `menu`
 * the Menu button's wrapper, `closed` and `open` the folded items'. From sm to xl; and with the environment switcher
 * (which folds with them) at every width from sm: beside it and a badge of 200 px they left a support user's search
 * box 95 px at 1280 px ("refId, e"), and wrapped the row to two up to 1600 px. The row keeps the badge.
 */
export interface Fold {
  menu: string;
  closed: string;
  open: string;
}
const FOLD_BELOW_XL: Fold = {
  menu: 'max-sm:hidden xl:hidden',
  closed: 'sm:max-xl:hidden',
  open: 'sm:max-xl:absolute sm:max-xl:top-full sm:max-xl:right-4 sm:max-xl:z-30 sm:max-xl:mt-1 sm:max-xl:flex sm:max-xl:flex-wrap sm:max-xl:items-center sm:max-xl:gap-2 sm:max-xl:rounded-lg sm:max-xl:border sm:max-xl:border-slate-200 sm:max-xl:bg-white sm:max-xl:p-3 sm:max-xl:shadow-lg',
};
const FOLD_ALWAYS: Fold = {
  menu: 'max-sm:hidden',
  closed: 'sm:hidden',
  open: 'sm:absolute sm:top-full sm:right-4 sm:z-30 sm:mt-1 sm:flex sm:flex-wrap sm:items-center sm:gap-2 sm:rounded-lg sm:border sm:border-slate-200 sm:bg-white sm:p-3 sm:shadow-lg',
};
export const foldOf = (switcher: boolean): Fold => (switcher ? FOLD_ALWAYS : FOLD_BELOW_XL);

export const SEARCH_PANEL = 'header-search';
export const MENU_PANEL = 'header-menu';

/** Which panel is open; none after going to another page, and the search panel when a shortcut asks for the box. */
export function useHeaderPanel(path: string): [HeaderPanel, (panel: HeaderPanel) => void] {
  const [panel, setPanel] = useState<HeaderPanel>();
  useEffect(() => {
    if (path) setPanel(undefined);
  }, [path]);
  useEffect(() => {
    const open = () => flushSync(() => setPanel('search'));
    window.addEventListener(OPEN_SEARCH_EVENT, open);
    return () => window.removeEventListener(OPEN_SEARCH_EVENT, open);
  }, []);
  return [panel, setPanel];
}

/**
 * How the header's panels open. Search opens with focus in its box, as "/" does: the button is pressed to
 * type an id. The phone's Menu stands before the page links, and what it opens after them (the row's Menu,
 * from sm, is inside it): opened from there, focus goes to its first item, so that Tab goes on through the
 * items and out of the last (UX review: at 390 px Tab from Menu went to Applicants, and the Menu closed
 * with its toggles never reached). The row's Menu keeps focus: its items follow it in the Tab order.
 */
export function usePanelOpeners(panel: HeaderPanel, setPanel: (panel: HeaderPanel) => void) {
  const openInto = (which: Exclude<HeaderPanel, undefined>, first: () => HTMLElement | null | undefined) => {
    if (panel === which) return setPanel(undefined);
    flushSync(() => setPanel(which));
    first()?.focus();
  };
  return {
    toggleMenu: () => setPanel(panel === 'menu' ? undefined : 'menu'),
    openMenuInto: () => openInto('menu', firstMenuItem),
    openSearch: () => openInto('search', () => document.getElementById(SEARCH_PANEL)?.querySelector<HTMLInputElement>('input[name="id"]')),
  };
}

/** The open Menu's first item on screen (not the row's Menu inside it, hidden on a phone); without a layout (jsdom), its first. */
function firstMenuItem(): HTMLElement | undefined {
  const panel = document.getElementById(MENU_PANEL);
  const items = [...(panel?.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea') ?? [])].filter(
    (item) => item.getAttribute('aria-controls') !== MENU_PANEL && !item.matches(':disabled'),
  );
  return items.find((item) => item.getClientRects().length > 0) ?? items[0];
}

export function PanelButton({
  open,
  controls,
  onClick,
  children,
}: {
  open: boolean;
  controls: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" aria-expanded={open} aria-controls={controls} onClick={onClick} className={toggleClass}>
      {children}
    </button>
  );
}

/**
 * The open Menu closes as the header's other popover does (use-dismiss.ts): Escape (focus back on the Menu
 * button on screen), a press or focus outside it. From sm to xl it lies over the page, and it stayed open
 * over the page's own controls once focus or a click had left it.
 */
export function useMenuDismiss(open: boolean, setPanel: (panel: HeaderPanel) => void): void {
  const close = useCallback(() => setPanel(undefined), [setPanel]);
  const refs = useRef({
    panel: {
      get current() {
        return document.getElementById(MENU_PANEL);
      },
    },
    button: {
      get current() {
        return shownMenuButton();
      },
    },
  }).current;
  useDismiss(open, close, refs.panel, refs.button, innerOpen);
}

/** A popover open inside the Menu (the notifications'): Escape closes it first, the Menu stays open. */
function innerOpen(): boolean {
  return document.getElementById(MENU_PANEL)?.querySelector(`[aria-expanded="true"]:not([aria-controls="${MENU_PANEL}"])`) != null;
}

/** The Menu button on screen: the phone's, or the row's from sm to xl; without a layout (jsdom), the row's, the last. */
function shownMenuButton(): HTMLElement | null {
  const buttons = [...document.querySelectorAll<HTMLElement>(`button[aria-controls="${MENU_PANEL}"]`)];
  return buttons.find((button) => button.getClientRects().length > 0) ?? buttons.at(-1) ?? null;
}

/**
 * What a closed Menu keeps in sight of what it holds: that the privacy mask is on (someone sharing their
 * screen must see it without opening a menu) and how many notifications came. On screen only: the button's
 * name stays "Menu", and the toggles inside say their state to a screen reader.
 */
export function MenuSummary() {
  const { masked } = usePrivacyMask();
  const count = useLiveNotifications().length;
  return (
    <>
      {masked && (
        <span aria-hidden="true" data-testid="menu-masked" className="rounded bg-slate-800 px-1.5 text-xs text-white">
          Masked
        </span>
      )}
      {count > 0 && (
        <span aria-hidden="true" className="rounded-full bg-slate-200 px-1.5 text-xs text-slate-800 tabular-nums">
          {count}
        </span>
      )}
    </>
  );
}
