/** An audit search's or export's filter in a line of text, as its row's detail says it (audit-row.ts): `user ana, refId cust_1, from 2026-11-01T00:00:00Z`. */
export function filterText(filter: unknown): string {
  if (typeof filter !== 'object' || filter === null) return 'no filter';
  const parts = Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .map(
      ([name, value]) =>
        (name === 'who' ? WHO_WORDS[String(value)] : undefined) ?? `${name} ${Array.isArray(value) ? value.join('|') : String(value)}`,
    );
  return parts.length > 0 ? parts.join(', ') : 'no filter';
}

/** "Lines by", as the page's form says it: "who people" was the filter's own field and value. */
const WHO_WORDS: Record<string, string> = { people: "people's lines", server: "this server's own work" };
