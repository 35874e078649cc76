import { runAuditVerify } from '../audit/audit-verify.ts';

/** The entry of `npm run audit:verify` (dist/server/audit-verify.js in a container). */
process.exitCode = runAuditVerify(
  process.argv.slice(2),
  (line) => console.log(line),
  (line) => console.error(line),
);
