import { readFileSync } from 'node:fs';
import { verifyChain, type ChainFile } from './audit-chain.ts';

/**
 * `npm run audit:verify -- <file>…`: checks the audit log's hash chain across the files given oldest
 * first (audit.jsonl.2 audit.jsonl.1 audit.jsonl). Exit 0 when intact, 1 at the first broken line,
 * 2 when a file cannot be read.
 */
export function runAuditVerify(args: string[], out: (line: string) => void, err: (line: string) => void): number {
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
    err('usage: npm run audit:verify -- <file>… (rotated files first, oldest first; the current file last)');
    return 2;
  }
  const files: ChainFile[] = [];
  for (const name of args) {
    try {
      files.push({ name, content: readFileSync(name) });
    } catch (error) {
      err(`Cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      return 2;
    }
  }
  const report = verifyChain(files);
  if (!report.ok) {
    err(`${report.file}:${report.line}: chain broken: ${report.reason}`);
    err(`  ${report.text.length > 400 ? `${report.text.slice(0, 400)}…` : report.text}`);
    err(`${report.lines} lines before it are intact.`);
    return 1;
  }
  for (const note of report.notes) out(`note: ${note}`);
  out(`${report.lines} lines, chain intact`);
  return 0;
}
