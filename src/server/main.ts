import path from 'node:path';
import { orExit } from './config/config.ts';
import { syncStdout } from './log/server-output.ts';
import { ListenError, STOP_DEADLINE_MS, startServer } from './composition/start-server.ts';

/**
 * `npm start`: the built SPA and the proxy on HOST:PORT; metrics on METRICS_PORT when set. Logs are text
 * at a terminal and JSON lines elsewhere (LOG_FORMAT chooses). The process's part: its environment, its
 * stdout, its signals and its exit code (composition/start-server.ts does the rest, and tests run it in-process).
 */
async function main(): Promise<void> {
  const server = await orExit(() =>
    startServer({
      env: process.env,
      cwd: process.cwd(),
      stdout: syncStdout(),
      staticDir: path.resolve(import.meta.dirname, '../client'),
    }).catch((error: unknown) => {
      // Logged already, as the reason the process ends.
      if (error instanceof ListenError) process.exit(1);
      throw error;
    }),
  );
  const stop = (signal: string) => {
    // Past the deadline the process ends whatever holds it. Not by process.exit: that waits for every
    // thread of libuv's pool, and one held by a hung file (an audit log on a dead network mount) would
    // hold it for ever. The exit status is then SIGKILL's.
    setTimeout(() => {
      server.logger.error(`${signal}: not stopped after ${STOP_DEADLINE_MS / 1000} s; ending the process now.`);
      process.kill(process.pid, 'SIGKILL');
    }, STOP_DEADLINE_MS);
    void server.stop(signal).then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
