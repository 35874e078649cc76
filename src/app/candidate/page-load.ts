/**
 * The candidate page's module. It is not part of the first load: it is fetched as soon as the browser is
 * idle (app.tsx), and once loaded the page renders without suspending (a suspended and revealed boundary
 * would be held back by React for up to 300 ms), and the search box starts a lookup with it.
 */
export type CandidatePageModule = typeof import('./candidate-page.tsx');

let loaded: CandidatePageModule | undefined;
let loading: Promise<CandidatePageModule> | undefined;

export const loadCandidatePage = () => (loading ??= import('./candidate-page.tsx').then((module) => (loaded = module)));

/** The module if it is loaded already, without waiting. */
export const loadedCandidatePage = (): CandidatePageModule | undefined => loaded;
