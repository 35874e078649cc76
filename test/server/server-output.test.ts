import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createServerOutput, prettyLine, wrapped } from '../../src/server/log/server-output.ts';
import { sandboxBanner } from '../../src/server/composition/resolve-upstream.ts';

/** A stand-in for stdout: a terminal or a pipe, keeping what is written. */
function fakeStdout(isTTY: boolean) {
  let written = '';
  return { isTTY, write: (text: string) => (written += text), written: () => written };
}

const banner = sandboxBanner({ largeImages: false }, 'http://127.0.0.1:40123', 12);

/** What `npm start` prints before and once it listens, as main.ts says it. */
function startUp(stdout: ReturnType<typeof fakeStdout>, format?: 'pretty' | 'json') {
  const output = createServerOutput('info', format, stdout);
  output.say([...banner, 'Sign-in: none (local mode, loopback only).']);
  output.listening('http://127.0.0.1:3000/');
  output.logger.warn('Free space for the audit log is low.');
  return output;
}

describe('what npm start prints', () => {
  it('at a terminal: the sandbox banner as a box of text, and the address alone on its line', () => {
    const stdout = fakeStdout(true);
    expect(startUp(stdout).format).toBe('pretty');
    const lines = stdout.written().split('\n');
    const box = lines.filter((line) => line.startsWith('  *'));
    expect(box).toHaveLength(6);
    expect(box.some((line) => line.includes('SANDBOX MODE: KYC_BASE_URL is not set'))).toBe(true);
    // Every line of the box is as wide as the others, and fits a terminal 80 columns wide.
    expect(new Set(box.map((line) => line.length)).size).toBe(1);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines).toContain('      http://127.0.0.1:3000/');
    expect(lines).toContain('  Sign-in: none (local mode, loopback only).');
    expect(stdout.written()).not.toContain('{"level"');
    expect(lines.find((line) => line.includes('Free space'))).toMatch(/^\d\d:\d\d:\d\d WARN {2}Free space for the audit log is low\.$/);
  });

  it('to a pipe or a file: every line is a JSON log line, the URL in a "running at" line', () => {
    const stdout = fakeStdout(false);
    expect(startUp(stdout).format).toBe('json');
    const records = stdout
      .written()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(records.map((record) => record.msg)).toContain('Candidate Lookup is running at http://127.0.0.1:3000/');
    expect(records.some((record) => record.msg.includes('SANDBOX MODE'))).toBe(true);
    expect(records.at(-1)).toMatchObject({ level: 'warn', msg: 'Free space for the audit log is low.' });
  });

  it('LOG_FORMAT=json at a terminal writes JSON lines, and LOG_FORMAT=pretty to a pipe writes text', () => {
    const terminal = fakeStdout(true);
    startUp(terminal, 'json');
    for (const line of terminal.written().trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    const pipe = fakeStdout(false);
    startUp(pipe, 'pretty');
    expect(pipe.written()).toContain('\n      http://127.0.0.1:3000/\n');
  });

  it('LOG_LEVEL=warn quiets the start-up lines at a terminal as it does the JSON ones', () => {
    const stdout = fakeStdout(true);
    const output = createServerOutput('warn', undefined, stdout);
    output.say(['Sign-in: none (local mode, loopback only).']);
    output.listening('http://127.0.0.1:3000/');
    output.logger.warn('a warning');
    expect(stdout.written()).not.toContain('Sign-in');
    expect(stdout.written()).toContain('WARN  a warning');
  });

  it('a request line at a terminal: one line, with its route, status, time, bytes and id', () => {
    const json = JSON.stringify({
      level: 'info',
      time: '2026-11-26T07:00:00.000Z',
      reqId: 'r-1',
      route: '/api/candidates/refId/:id',
      method: 'GET',
      status: 200,
      ms: 12,
      bytes: 345,
      msg: 'request',
    });
    expect(prettyLine(json)).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/api\/candidates\/refId\/:id 200 12ms 345B r-1\n$/);
  });

  it('a start-up line too long for an 80-column terminal is broken at spaces, every word kept in order', () => {
    const word = fc.oneof(fc.stringMatching(/^[!-~]{1,12}$/), fc.stringMatching(/^[!-~]{70,90}$/));
    fc.assert(
      fc.property(fc.nat(4), fc.array(word, { minLength: 1, maxLength: 40 }), (indent, words) => {
        const line = ' '.repeat(indent) + words.join(' ');
        const lines = wrapped(line).split('\n');
        expect(lines.flatMap((part) => part.trim().split(' '))).toEqual(words);
        // Each line fits, unless it is one word that does not (nothing to break it at).
        for (const part of lines) expect(part.length <= 80 || !part.trim().includes(' ')).toBe(true);
        // What follows the first line is indented two more columns than the line was.
        for (const part of lines.slice(1)) expect(part.startsWith(' '.repeat(indent + 2))).toBe(true);
      }),
    );
  });
});
