/**
 * What is down when the server answers `store_unavailable`: not the server, its session store (Redis).
 * Its own file: the notice over an open page (session-retry.tsx) is part of the first load, the full
 * screen (store-unavailable.tsx) is fetched when needed, and both say it in these words.
 */
export const STORE_DOWN_TEXT = 'Candidate Lookup cannot reach its session store right now';
