import pino from 'pino';
import { createLogger, formatLine, type LogFormat, type Logger, type LogLevel } from './log.ts';

/** Where the server writes: stdout, or a stand-in in tests. `isTTY` picks the form when LOG_FORMAT is not set. */
export interface Stdout {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * What `npm start` prints. The log is pino's either way; what differs is what a person reads: at a
 * terminal, the start-up lines (the sandbox banner's box among them) as the text they are and the
 * address alone on its line, and each log line as one line of text; elsewhere, all of it as JSON lines,
 * for a collector.
 */
export interface ServerOutput {
  format: LogFormat;
  logger: Logger;
  /** Start-up lines for a person: the banner, sign-in, shared state, where state is kept. */
  say(lines: string[]): void;
  /** The address the app answers on, once it listens. */
  listening(url: string): void;
}

/** LOG_FORMAT when set; else text at a terminal and JSON lines when stdout is a pipe or a file. */
export function logFormatOf(configured: LogFormat | undefined, stdout: Pick<Stdout, 'isTTY'>): LogFormat {
  return configured ?? (stdout.isTTY ? 'pretty' : 'json');
}

/** Stdout written synchronously, so no line is lost when the process exits just after it. */
export function syncStdout(): Stdout {
  const destination = pino.destination({ fd: 1, sync: true });
  return { isTTY: process.stdout.isTTY, write: (text) => destination.write(text) };
}

export function createServerOutput(level: LogLevel, configured?: LogFormat, stdout: Stdout = syncStdout()): ServerOutput {
  const format = logFormatOf(configured, stdout);
  if (format === 'json') {
    const logger = createLogger(stdout, level);
    return {
      format,
      logger,
      say: (lines) => {
        for (const line of lines) if (line.trim()) logger.info(line);
      },
      listening: (url) => logger.info(`Candidate Lookup is running at ${url}`),
    };
  }
  const logger = createLogger({ write: (text) => stdout.write(prettyLine(text)) }, level);
  // Said at the level of the lines they replace: LOG_LEVEL=warn quiets them too.
  const say = (text: string) => {
    if (logger.isLevelEnabled('info')) stdout.write(text);
  };
  return {
    format,
    logger,
    say: (lines) => say(lines.map((line) => `${wrapped(indented(line))}\n`).join('')),
    listening: (url) => say(`\n  Candidate Lookup is running at:\n\n      ${url}\n\n`),
  };
}

/** Start-up lines sit two columns in, as the banner's box does. */
function indented(line: string): string {
  return line === '' || line.startsWith(' ') ? line : `  ${line}`;
}

/** A line longer than a terminal 80 columns wide, broken at spaces; what follows is indented further. */
export function wrapped(line: string, width = 80): string {
  const indent = ' '.repeat(line.length - line.trimStart().length + 2);
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const lead = rest.length - rest.trimStart().length;
    let at = rest.lastIndexOf(' ', width);
    // A word longer than the width goes on a line of its own.
    if (at < lead) at = rest.indexOf(' ', lead);
    if (at < 0) break;
    out.push(rest.slice(0, at));
    rest = indent + rest.slice(at + 1).trimStart();
  }
  return [...out, rest].join('\n');
}

/** One JSON log line as one line of text: its local time, its level, and what Vite's output shows of it. */
export function prettyLine(json: string): string {
  const { time } = JSON.parse(json) as { time?: string };
  const { level, text } = formatLine(json);
  const when = time ? new Date(time).toLocaleTimeString('en-GB', { hour12: false }) : '--:--:--';
  return `${when} ${level.toUpperCase().padEnd(5)} ${text}\n`;
}
