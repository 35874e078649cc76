import { parseArgs } from 'node:util';
import { type Config, ConfigError, type Environment, loadConfig } from '../config/config.ts';
import { createDatabase, databaseProblem, describeDatabaseUrl, migrate } from '../state/postgres.ts';
import { openToRead, readLinesForward } from './audit-files.ts';
import { createAuditIndexer, indexedOf } from './audit-indexer.ts';
import { insertLines } from './audit-table.ts';

const USAGE = [
  'usage: npm run audit:import -- [--rebuild] [--instance <name> <file>…]',
  "  (no files)   catch the table up with this instance's audit files (AUDIT_LOG and its rotated files beside it),",
  '               from where the table stands: what the server does by itself, after an outage or with the server stopped',
  '  --rebuild    read those files from their first line, whatever the table says (an emptied or restored table)',
  "  --instance   import the files given (another instance's, oldest first) under that instance's name",
  'Every line already in the table is left as it is: running it twice, or beside the server, inserts nothing twice.',
];

/**
 * `npm run audit:import`: the audit table (DATABASE_URL) rebuilt or caught up from the audit files, the
 * record it indexes (trail/audit-indexer.ts, which the server runs as it writes). Exit 0 when done, 1
 * when the database fails, 2 for a configuration or usage problem.
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
    if (parsed.files.length > 0) await importFiles(db, parsed.files, instance, config.auditRetentionDays, onBatch);
    else {
      const indexer = createAuditIndexer(db, {
        file: config.auditLog,
        instance,
        retentionDays: config.auditRetentionDays,
        fromStart: parsed.rebuild,
        onBatch,
      });
      await indexer.syncNow().finally(() => indexer.close());
    }
    out(
      `${counts.read} lines read, ${counts.inserted} new to the table, ${counts.read - counts.inserted} there already or past the retention`,
    );
    out(`(instance "${instance}", table at ${describeDatabaseUrl(config.databaseUrl)})`);
    return 0;
  } catch (error) {
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
    options: { rebuild: { type: 'boolean', default: false }, instance: { type: 'string' } },
  });
  if (positionals.length > 0 && values.instance === undefined)
    throw new TypeError('Files given: say whose they are with --instance <name>.');
  if (positionals.length > 0 && values.rebuild)
    throw new TypeError("--rebuild is for this instance's own files; files given are read whole anyway.");
  return { rebuild: values.rebuild, instance: values.instance, files: positionals };
}

/** Files given by name, read whole, oldest first: no progress is saved (they are not this instance's files as it writes them). */
async function importFiles(
  db: ReturnType<typeof createDatabase>,
  files: string[],
  instance: string,
  retentionDays: number,
  onBatch: (read: number, inserted: number) => void,
): Promise<void> {
  const oldest = Date.now() - retentionDays * 86_400_000;
  for (const file of files) {
    const handle = await openToRead(file);
    if (!handle) throw new Error(`cannot read ${file}`);
    try {
      const { size } = await handle.stat();
      for (let start = 0; start < size; ) {
        const lines = await readLinesForward(handle, start, size, 1024 * 1024);
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
