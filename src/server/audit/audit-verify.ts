import { readFileSync } from 'node:fs';
import { CONTINUES_FLAG, type ChainFile, verifyChain } from './audit-chain.ts';

const USAGE = [
  `usage: npm run audit:verify -- [${CONTINUES_FLAG}] <file>… (rotated files first, oldest first; the current file last)`,
  `  ${CONTINUES_FLAG}  the first file continues a rotated file that is gone: accept a first line that does not`,
  '      start a chain. Without it, such a line is a broken chain: lines cut from the start of a file look the same.',
  'It reads the files only: lines cut from the end of the last file leave it intact (the audit table records such a cut).',
];

/** A line's text as quoted: its first 400 characters. */
const cut = (text: string): string => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

/**
 * `npm run audit:verify -- [--continues-earlier-file] <file>…`: checks the audit log's hash chain across
 * the files given oldest first (audit.jsonl.2 audit.jsonl.1 audit.jsonl). Exit 0 when intact, 1 at the
 * first broken line (a first file that does not start a chain included, unless the flag says it
 * continues one that is gone), 2 when a file cannot be read or the arguments are wrong.
 */
export function runAuditVerify(args: string[], out: (line: string) => void, err: (line: string) => void): number {
  const names = args.filter((arg) => !arg.startsWith('-'));
  const unknown = args.find((arg) => arg.startsWith('-') && arg !== CONTINUES_FLAG);
  if (names.length === 0 || unknown !== undefined) {
    if (unknown !== undefined && unknown !== '--help' && unknown !== '-h') err(`unknown option ${unknown}`);
    for (const line of USAGE) err(line);
    return 2;
  }
  const files: ChainFile[] = [];
  for (const name of names) {
    try {
      files.push({ name, content: readFileSync(name) });
    } catch (error) {
      err(`Cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      return 2;
    }
  }
  const report = verifyChain(files, { continuesEarlierFile: args.includes(CONTINUES_FLAG) });
  if (!report.ok) {
    err(`${report.file}:${report.line}: chain broken: ${report.reason}`);
    // Each text under its own number: the line named, then the later one that noticed (it was once shown alone under the first's).
    err(`  line ${report.line}: ${cut(report.text)}`);
    if (report.noticedBy) err(`  line ${report.noticedBy.line}, which noticed: ${cut(report.noticedBy.text)}`);
    err(`${report.lines} ${report.lines === 1 ? 'line' : 'lines'} before it ${report.lines === 1 ? 'is' : 'are'} intact.`);
    return 1;
  }
  for (const note of report.notes) out(`note: ${note}`);
  out(`${report.lines} lines, chain intact`);
  return 0;
}
