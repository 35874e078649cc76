/** An absolute time that says its zone, for text that leaves the screen (summaries, print). */
export function formatZonedDateTime(date: Date, options: { timeZone?: string; locale?: string } = {}): string {
  return new Intl.DateTimeFormat(options.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: options.timeZone,
    timeZoneName: 'short',
  }).format(date);
}
