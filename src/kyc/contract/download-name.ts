/**
 * A download's name, the one rule for every file the app hands over (the batch page's CSV, the audit
 * page's export): what it holds and when it was made, in the local time a reviewer reads on their clock,
 * with that time's offset from UTC (`audit-2026-11-22-1403+0100.csv`), so that two files made across a
 * clock change, or in two places, still say the same instant. Nothing else in the name: it ends up in
 * download lists, so no id or filter.
 */
export function downloadName(what: string, now: Date, extension = 'csv'): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  // getTimezoneOffset is minutes behind UTC: Berlin in winter is -60, written +0100.
  const ahead = -now.getTimezoneOffset();
  const offset = `${ahead < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(ahead) / 60))}${pad(Math.abs(ahead) % 60)}`;
  return `${what}-${date}-${pad(now.getHours())}${pad(now.getMinutes())}${offset}.${extension}`;
}
