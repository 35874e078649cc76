import path from 'node:path';
import { orExit } from './config/config.ts';
import { syncStdout } from './log/server-output.ts';
import { ListenError, startServer } from './start-server.ts';

/**
 * `npm start`: the built SPA and the proxy on HOST:PORT; metrics on METRICS_PORT when set. Logs are text
 * at a terminal and JSON lines elsewhere (LOG_FORMAT chooses). The process's part: its environment, its
 * stdout, its signals and its exit code (start-server.ts does the rest, and tests run it in-process).
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
  const stop = (signal: string) => void server.stop(signal).then(() => process.exit(0));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
