import { orExit } from '../config/config.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import { parseSandboxArgs } from './sandbox-args.ts';
import { sandboxOptions } from './options.ts';
import { KEY_SCOPE_DESCRIPTIONS, SANDBOX_ARCHIVE_AFTER_SECONDS, SANDBOX_ARCHIVE_KEY, startSandbox, type KeyScope } from './sandbox.ts';

/** `npm run sandbox [-- --port 4010 --host 127.0.0.1 --data file.json --large-images --hostile --test-controls]`: the sandbox upstream alone. */
async function main(): Promise<void> {
  const args = await orExit(() => parseSandboxArgs(process.argv.slice(2)));
  const options = await orExit(() => sandboxOptions(args));
  const sandbox = await startSandbox({ ...options, host: args.host, port: args.port, testControls: args.testControls });
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (args.testControls) {
    console.log(
      "  --test-controls: POST /_test/status changes a candidate's status, POST /_test/reset undoes it all, POST /_test/outage cuts it off, POST /_test/webhook sends a webhook in another form (tests only)",
    );
  }
  console.log(`Sandbox KYC Connect upstream at ${sandbox.url}`);
  if (args.listShape && args.listShape !== 'older')
    console.log(`  --list-shape ${args.listShape}: the list operation answers in that published shape`);
  if (!isLoopbackHost(args.host)) {
    console.log(`  --host ${args.host}: reachable from other machines, and its keys below are public.`);
  } else if (process.env.HOST && !isLoopbackHost(process.env.HOST)) {
    console.log(`  This machine only: HOST=${process.env.HOST} applies to the app, not the sandbox (give --host for that).`);
  }
  console.log(`  client id: ${sandbox.clientId}`);
  for (const [scope, key] of Object.entries(sandbox.keys)) {
    console.log(`  key (${KEY_SCOPE_DESCRIPTIONS[scope as KeyScope]}): ${key}`);
  }
  console.log(
    `  key (everything, archives after extract: ${SANDBOX_ARCHIVE_AFTER_SECONDS} s after each full lookup): ${SANDBOX_ARCHIVE_KEY}`,
  );
  console.log('  candidates:');
  for (const { record, summary } of sandbox.candidates) {
    const id = record.refId ? `refId ${record.refId}` : `recordId ${record.recordId}`;
    console.log(`    ${id.padEnd(48)} ${summary}`);
  }
  for (const { record, summary } of options.archiveKeyCandidates) {
    console.log(
      `    ${`refId ${record.refId}`.padEnd(48)} ${summary} (deleted ${SANDBOX_ARCHIVE_AFTER_SECONDS} s after a full lookup with ${SANDBOX_ARCHIVE_KEY})`,
    );
  }
  console.log(
    `Try: curl -H 'Authorization: ${sandbox.keys.status}' ${sandbox.url}/kyc/1.0/connect/${sandbox.clientId}/recordId/${sandbox.candidates[0]!.record.recordId}`,
  );
}

await main();
