/**
 * The candidate page's module. It is not part of the first load: it is fetched as soon as the browser is
 * idle (app.tsx), and once loaded the page renders without suspending (a suspended and revealed boundary
 * would be held back by React for up to 300 ms), and the search box starts a lookup with it.
 */
export type CandidatePageModule = typeof import('./candidate-page.tsx');

let loaded: CandidatePageModule | undefined;
let loading: Promise<CandidatePageModule> | undefined;

export const loadCandidatePage = () =>
  (loading ??= Promise.all([import('./candidate-page.tsx'), import('../../kyc/view/time.ts')]).then(([module, time]) => {
    loaded = module;
    warmDates(time);
    return module;
  }));

/**
 * Every candidate page shows dates, and the first date a page formats costs far more than the next
 * (the browser loads its time zone and locale data then: 40 to 65 ms of a cold page's first render of a
 * candidate, measured in a fresh browser context). Formatted once here, while the browser is idle, that
 * is not spent after the reviewer pressed Enter.
 */
function warmDates({ formatDateTime, formatRelative }: typeof import('../../kyc/view/time.ts')): void {
  const now = new Date();
  for (const zone of ['local', 'utc'] as const) {
    formatDateTime(now, { zone });
    formatRelative(new Date(now.getTime() - 86_400_000), now, { zone });
  }
}

/** The module if it is loaded already, without waiting. */
export const loadedCandidatePage = (): CandidatePageModule | undefined => loaded;
