/**
 * How long, in a message's words: "45 s", "9 min", "3 h", "3 days" (one unit, rounded). For the server's
 * own sentences (a log warning, an audit line's detail); the app's pages have src/kyc/view/time.ts.
 */
export function elapsedText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}
