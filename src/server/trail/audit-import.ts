import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ChainChecker, CONTINUES_FLAG } from '../audit/audit-chain.ts';
import { type Config, ConfigError, type Environment, loadConfig } from '../config/config.ts';
import { createDatabase, databaseProblem, DatabaseUnfit, describeDatabaseUrl, migrate } from '../state/postgres.ts';
import { type AuditFile, openToRead, readLinesForward } from './audit-files.ts';
import { createAuditIndexer, indexedOf } from './audit-indexer.ts';
import { insertLines } from './audit-table.ts';
import { readChain } from './chain-read.ts';
import { createChainWatch } from './chain-watch.ts';

const USAGE = [
  `usage: npm run audit:import -- [--rebuild] [--instance <name> [${CONTINUES_FLAG}] <file>…]`,
  "  (no files)   catch the table up with this instance's audit files (AUDIT_LOG and its rotated files beside it),",
  '               from where the table stands: what the server does by itself, after an outage or with the server stopped',
  '  --rebuild    read those files from their first line, whatever the table says (an emptied or restored table)',
  "  --instance   import the files given (another instance's, oldest first) under that instance's name, as far as",
  '               their hash chain vouches for them: at a break, nothing from the line it names on is imported',
  `  ${CONTINUES_FLAG}  the first file given continues a rotated file that is gone (as npm run audit:verify)`,
  'Every line already in the table is left as it is: running it twice, or beside the server, inserts nothing twice.',
];

/**
 * `npm run audit:import`: the audit table (DATABASE_URL) rebuilt or caught up from the audit files, the
 * record it indexes (trail/audit-indexer.ts, which the server runs as it writes). Exit 0 when done, 1
 * when the database fails or the files' hash chain breaks, 2 for a configuration or usage problem (a
 * database the schema cannot be made in, its encoding not UTF8, among them).
 *
 * The files' chain is checked as the audit page checks this instance's own (chain-read.ts's readChain).
 * Another instance's files (`--instance`) are imported only as far as the chain vouches for them, as
 * nothing would mark the rows after a break `unvouched`: unvouched.ts marks another instance's rows by
 * that instance's own last report, which checks its own files (not these copies) and which it writes
 * again every 30 s while it runs (one written here would be replaced, or would say a running instance
 * stopped); audit-cuts.ts's table says of each of its entries that bytes were cut from a file's end,
 * which a break is not. The import stops there, says which file, which line and why, and exits 1. This
 * instance's own files (no files given, `--rebuild`) are imported whole, as the server's indexer imports
 * them beside it anyway: the server checks them itself, and its page and its reports to the table mark
 * the rows after a break; the import says the break and exits 1 all the same.
 */
export async function runAuditImport(
  args: string[],
  env: Environment,
  cwd: string,
  out: (line: string) => void,
  err: (line: string) => void,
) {
  let parsed: ReturnType<typeof parse>;
  let config: Config;
  try {
    parsed = parse(args);
    config = loadConfig(env, cwd);
  } catch (error) {
    err(error instanceof ConfigError || error instanceof TypeError ? error.message : String(error));
    for (const line of USAGE) err(line);
    return 2;
  }
  if (!config.databaseUrl) {
    err('DATABASE_URL is not set: there is no audit table to import into (docs/deploying.md).');
    return 2;
  }
  const db = createDatabase(config.databaseUrl);
  const counts = { read: 0, inserted: 0 };
  const onBatch = (read: number, inserted: number) => {
    counts.read += read;
    counts.inserted += inserted;
  };
  try {
    await migrate(db);
    const instance = parsed.instance ?? config.auditInstance;
    let broken: string[] = [];
    if (parsed.files.length > 0) {
      const files = await filesGiven(parsed.files);
      const stop = await chainStop(files, parsed.continuesEarlierFile);
      await importFiles(db, files, stop, instance, config.auditRetentionDays, onBatch);
      if (stop) broken = stopSaid(stop, parsed.files, parsed.continuesEarlierFile);
    } else {
      const indexer = createAuditIndexer(db, {
        file: config.auditLog,
        instance,
        retentionDays: config.auditRetentionDays,
        fromStart: parsed.rebuild,
        onBatch,
      });
      await indexer.syncNow().finally(() => indexer.close());
      broken = await ownBreakSaid(config.auditLog, instance);
    }
    out(
      `${counts.read} lines read, ${counts.inserted} new to the table, ${counts.read - counts.inserted} there already or past the retention`,
    );
    out(`(instance "${instance}", table at ${describeDatabaseUrl(config.databaseUrl)})`);
    for (const line of broken) err(line);
    return broken.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof DatabaseUnfit) {
      err(`The audit table cannot be made in this database: ${error.message}`);
      return 2;
    }
    err(`The audit table could not be written: ${databaseProblem(error)}`);
    return 1;
  } finally {
    await db.end().catch(() => {});
  }
}

function parse(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      rebuild: { type: 'boolean', default: false },
      instance: { type: 'string' },
      [CONTINUES_FLAG.slice(2)]: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0 && values.instance === undefined)
    throw new TypeError('Files given: say whose they are with --instance <name>.');
  if (positionals.length > 0 && values.rebuild)
    throw new TypeError("--rebuild is for this instance's own files; files given are read whole anyway.");
  const continuesEarlierFile = values[CONTINUES_FLAG.slice(2)] === true;
  if (continuesEarlierFile && positionals.length === 0) throw new TypeError(`${CONTINUES_FLAG} is said of the first file given.`);
  return { rebuild: values.rebuild, instance: values.instance, files: positionals, continuesEarlierFile };
}

/** The files given, as they stand now: each is checked and imported up to this size (a line written since is not). */
async function filesGiven(paths: string[]): Promise<AuditFile[]> {
  const files: AuditFile[] = [];
  for (const file of paths) {
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) throw new Error(`cannot read ${file}`);
    // Not `current`: a last line without its line end is a break (a cut file, or a copy made mid-write), not a write under way.
    files.push({ path: file, name: file, inode: found.ino, size: found.size, mtimeMs: found.mtimeMs, current: false });
  }
  return files;
}

/**
 * Where the chain of the files given (oldest first) stops vouching for their lines: the file (its index)
 * and the offset of the first line it does not vouch for, with the break as readChain says it (its line
 * in `broken`, which is the file after when its first line noticed that the last line of this one was
 * edited). `vouched`: the number of that first line not vouched for, in its file. None: intact.
 */
interface ChainStop {
  file: number;
  offset: number;
  vouched: number;
  broken: { file: number; line: number; reason: string };
}

async function chainStop(files: AuditFile[], continuesEarlierFile: boolean): Promise<ChainStop | undefined> {
  // One checker for all the files, as audit:verify's: a file's first line is checked against the last line of the one before.
  const checker = new ChainChecker({ continuesEarlierFile });
  // The last file that had lines: where its last line starts, and how many it had.
  let withLines: { file: number; lastStart: number; lines: number } | undefined;
  for (const [index, file] of files.entries()) {
    checker.startFile(file.name);
    // readChain counts the lines of the file it reads from the checker's count.
    checker.checked = 0;
    const read = await readChain(file, checker, 0, undefined, () => {});
    if (!read.intact && read.broken) {
      const broken = { file: index, line: read.broken.line, reason: read.broken.reason };
      if (read.unvouchedAt === 'previous' && withLines)
        return { file: withLines.file, offset: withLines.lastStart, vouched: withLines.lines, broken };
      const offset = typeof read.unvouchedAt === 'number' ? read.unvouchedAt : 0;
      return { file: index, offset, vouched: read.unvouchedAt === undefined ? 1 : read.broken.line, broken };
    }
    if (read.lastStart !== undefined) withLines = { file: index, lastStart: read.lastStart, lines: checker.checked };
  }
  return undefined;
}

/** What is said of a break in the files given: which file, which line and why; what was imported; what to do. */
function stopSaid(stop: ChainStop, paths: string[], continuesEarlierFile: boolean): string[] {
  const { broken } = stop;
  const verify = ['npm run audit:verify --', ...(continuesEarlierFile ? [CONTINUES_FLAG] : []), ...paths].join(' ');
  return [
    `${paths[broken.file]}: the hash chain breaks at line ${broken.line}: ${broken.reason}`,
    stop.vouched > 1
      ? `Imported what the chain vouches for, up to line ${stop.vouched - 1} of ${paths[stop.file]}; nothing after it, in that file or in the files after it.`
      : `Imported what the chain vouches for, the files before ${paths[stop.file]}; nothing of it or of the files after it.`,
    `The lines after the break are not in the table: ${verify} quotes the line; import them from an intact copy, or leave them out.`,
  ];
}

/**
 * This instance's own files, checked as its server checks them (chain-watch.ts): their oldest break, and
 * that the rows after it are in the table, marked `unvouched` by this instance's own check.
 */
async function ownBreakSaid(file: string, instance: string): Promise<string[]> {
  // Newest first: the oldest break is the one that counts.
  const oldest = (await createChainWatch(file).check()).filter((chain) => !chain.intact).at(-1);
  if (!oldest?.broken) return [];
  return [
    `${oldest.file}: the hash chain breaks at line ${oldest.broken.line}: ${oldest.broken.reason}`,
    `The lines after it are in the table, as the server's indexer puts them there: the audit page marks them unvouched by instance "${instance}"'s own check of its files (its report to the table, at its start and every 30 s while it runs).`,
  ];
}

/**
 * Files given by name, read oldest first as far as `stop` (the whole files when none): no progress is
 * saved (they are not this instance's files as it writes them).
 */
async function importFiles(
  db: ReturnType<typeof createDatabase>,
  files: AuditFile[],
  stop: ChainStop | undefined,
  instance: string,
  retentionDays: number,
  onBatch: (read: number, inserted: number) => void,
): Promise<void> {
  const oldest = Date.now() - retentionDays * 86_400_000;
  for (const [index, file] of files.entries()) {
    if (stop && index > stop.file) return;
    // The complete lines that end by `end`: those the chain vouches for, as far as it was checked.
    const end = stop && index === stop.file ? stop.offset : file.size;
    const handle = await openToRead(file.path);
    if (!handle) throw new Error(`cannot read ${file.path}`);
    try {
      for (let start = 0; start < end; ) {
        const lines = await readLinesForward(handle, start, end, 1024 * 1024);
        if (lines.length === 0) break;
        const indexed = lines.map((line) => indexedOf(line, instance));
        onBatch(
          lines.length,
          await insertLines(
            db,
            instance,
            indexed.filter((line) => Date.parse(line.row.time) >= oldest),
          ),
        );
        start = lines.at(-1)!.end;
      }
    } finally {
      await handle.close();
    }
  }
}
