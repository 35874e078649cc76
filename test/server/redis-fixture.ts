import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { freePort } from '../../scripts/free-port.mjs';

/** Debian's redis-server (`.ci/run` installs it); REDIS_SERVER_PATH points elsewhere. */
export const REDIS_SERVER_PATH = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
export const hasRedisServer = existsSync(REDIS_SERVER_PATH);
/** The describe name when the binary is missing: the only case in which the Redis tests are skipped. */
export const NO_REDIS_MESSAGE = `skipped: no redis-server binary at ${REDIS_SERVER_PATH} (apt-get install redis-server, or set REDIS_SERVER_PATH)`;

export interface RunningRedis {
  port: number;
  url: string;
  pid: number;
  /** Kills the process (SIGKILL: as if the machine went away) and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts a fresh, empty redis-server on the same port. */
  restart(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, as in a network partition. */
  pause(): void;
  /** Lets a paused process go on (SIGCONT), its data intact. */
  resume(): void;
  /** Stops it for good. */
  stop(): Promise<void>;
}

/** A real redis-server on a free loopback port, without persistence, stopped by its pid. */
export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let child = await launch(port);
  const exited = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    const proc = child;
    if (proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid!, signal);
    await exited(proc);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid!;
    },
    kill: () => end('SIGKILL'),
    async restart() {
      await end('SIGKILL');
      child = await launch(port);
    },
    pause: () => process.kill(child.pid!, 'SIGSTOP'),
    resume: () => process.kill(child.pid!, 'SIGCONT'),
    async stop() {
      // A paused process does not act on SIGTERM until it goes on.
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGCONT');
      await end('SIGTERM');
    },
  };
}

/** Every redis-server still running when the test process ends is stopped with it, even after a failed test. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER_PATH,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Ready once it accepts a connection and answers PING.
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}): ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
