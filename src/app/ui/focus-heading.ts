/**
 * Moves the keyboard to the page's `h1` (made focusable for it, not put in the Tab order), without
 * scrolling: where focus goes when what held it is gone (a dismissed notice, a page left behind).
 */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/** The address (path and query) of the page whose heading the reader asked for (askForHeading), until it is shown. */
let askedFor: string | undefined;

const addressOf = (href: string) => {
  const url = new URL(href, window.location.href);
  return url.pathname + url.search;
};

/**
 * The reader asks for the page at `href` itself (a step of the reviewer's loop: Previous or Next, `k` or
 * `j`): its heading gets the focus as a first open's does (layout/focus-rescue.ts), also when a key or a
 * click (an arrow key scrolling, a screen reader's key passed on) came while it was opening, 300 ms and a
 * lookup (UX review: after `j` focus stayed on the document, a screen reader said nothing and Tab started
 * from the top). Focus the reader put somewhere meanwhile stays there. By its address: a key held for the
 * page drawn next steps on before this page's focus rescue starts (ui/page-keys.ts).
 */
export function askForHeading(href: string): void {
  askedFor = addressOf(href);
}

/** Whether the page now shown at `href` is the one whose heading was asked for; taken once, by the focus rescue. */
export function takeHeadingAsked(href: string): boolean {
  const asked = askedFor !== undefined && askedFor === addressOf(href);
  if (asked) askedFor = undefined;
  return asked;
}
