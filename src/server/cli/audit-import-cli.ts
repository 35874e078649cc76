import { runAuditImport } from '../trail/audit-import.ts';

/** The entry of `npm run audit:import` (dist/server/audit-import.js in a container). */
process.exitCode = await runAuditImport(
  process.argv.slice(2),
  process.env,
  process.cwd(),
  (line) => console.log(line),
  (line) => console.error(line),
);
