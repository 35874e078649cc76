import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { PreviewSlots } from './preview-slots.ts';

/**
 * The processes that make previews (preview-child.mjs): sharp runs there, never in the server's process.
 * A libvips call cannot be interrupted, and while it runs it holds one of libuv's four threads, which the
 * server's file writes (the audit line every lookup writes first), scrypt (every sign-in) and zlib share;
 * a busy thread also holds `process.exit`. A process can be killed: a picture that overruns its time
 * limit has its process killed, and keeps its place in the pool until the process has really ended, so
 * no more pictures are ever being decoded than the pool has processes, whatever the pictures do.
 */

export interface PreviewJob {
  bytes: Buffer;
  /** The preview's long side, in pixels. */
  longSide: number;
  /** Width × height past which the picture is not decoded (sharp's limitInputPixels, read from its header). */
  maxInputPixels: number;
  /** Time for the work, from when the picture is handed over; past it the process is killed. */
  timeLimitMs: number;
}

/** Whose picture a job is: the pool's turns go round the lookups waiting, one picture each (preview-slots.ts). */
export interface PreviewTurn {
  /** The lookup's own object: its pictures wait in one line. */
  lookup: object;
  /** Whether its answer still waits for the picture when its turn comes; one it no longer waits for passes the turn on. */
  wanted: () => boolean;
}

export type Preview = { ok: true; bytes: Buffer; width: number; height: number } | { ok: false; problem: string };

type Answer = { ready: true } | { ok: true; bytes: Uint8Array; width: number; height: number } | { ok: false; problem: string };

/** Time for a new process to load sharp and say it is ready (about 0.3 s; seconds on a loaded machine). */
const START_LIMIT_MS = 10_000;

let sharpPath: string | undefined;
/** Where sharp is, found from here: the checkout's node_modules, or the one beside the built server. */
const sharpModule = () => (sharpPath ??= createRequire(import.meta.url).resolve('sharp'));

/**
 * The program's file: beside this module in the checkout (tests, `npm run dev`), or where the server build
 * puts it (vite.config.ts: dist/server/preview-child.js), beside the entry this module is bundled into or
 * one folder up from a shared chunk of dist/server/assets.
 */
const PROGRAM_PLACES = ['./preview-child.mjs', './preview-child.js', '../preview-child.js'];
let programPath: string | undefined;
function childProgram(): string {
  programPath ??= PROGRAM_PLACES.map((place) => fileURLToPath(new URL(place, import.meta.url))).find((file) => existsSync(file));
  if (!programPath) throw new Error(`The preview program is missing: none of ${PROGRAM_PLACES.join(', ')} beside ${import.meta.url}`);
  return programPath;
}

/** Every process started and not yet ended, killed when this process exits, however it exits but SIGKILL. */
const living = new Set<ChildProcess>();
let exitHook = false;
function watch(child: ChildProcess): void {
  living.add(child);
  child.once('exit', () => living.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const one of living) one.kill('SIGKILL');
  });
}

/** One preview process: one picture at a time. */
class PreviewProcess {
  readonly ready: Promise<boolean>;
  private readonly child: ChildProcess;
  private ended = false;
  private readonly exited: Promise<void>;
  /** Who waits for the process's next word (ready, or a picture's answer); undefined once it has ended. */
  private listener: ((answer: Answer | undefined) => void) | undefined;

  constructor() {
    // Nothing of the server's environment (its keys among it): only libvips's own block of its untrusted operations.
    this.child = spawn(process.execPath, [childProgram(), sharpModule()], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env: { VIPS_BLOCK_UNTRUSTED: '1' },
    });
    watch(this.child);
    this.exited = new Promise((resolve) => {
      const gone = () => {
        if (this.ended) return;
        this.ended = true;
        this.listener?.(undefined);
        resolve();
      };
      this.child.once('exit', gone);
      // Not started at all (no exit follows), or not killed: either way it is not used again.
      this.child.on('error', gone);
    });
    this.ready = new Promise((resolve) => {
      const late = setTimeout(() => void this.kill(), START_LIMIT_MS);
      this.listener = (answer) => {
        clearTimeout(late);
        this.listener = undefined;
        resolve(answer !== undefined && 'ready' in answer);
      };
    });
    this.child.on('message', (message: Answer) => this.listener?.(message));
    this.keepsServerAlive(false);
  }

  get alive(): boolean {
    return !this.ended;
  }

  /**
   * The picture's preview. Past the time limit the process is killed, and this answers only once it has
   * ended: until then the picture still holds its place in the pool.
   */
  reduce(job: PreviewJob): Promise<Preview> {
    if (this.ended) return Promise.resolve({ ok: false, problem: 'the preview process ended' });
    return new Promise((resolve) => {
      let overran = false;
      const timer = setTimeout(() => {
        overran = true;
        void this.kill();
      }, job.timeLimitMs);
      this.listener = (answer) => {
        // Being killed: an answer that comes just too late is not taken, the process's end is awaited.
        if (overran && answer !== undefined) return;
        clearTimeout(timer);
        this.listener = undefined;
        this.keepsServerAlive(false);
        resolve(previewOf(answer, overran));
      };
      this.keepsServerAlive(true);
      this.child.send({ bytes: job.bytes, longSide: job.longSide, maxInputPixels: job.maxInputPixels }, (error) => {
        if (error) void this.kill();
      });
    });
  }

  /** Resolves once the process has ended. */
  kill(): Promise<void> {
    if (!this.ended) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** An idle process keeps neither the server's process nor its event loop alive; a busy one does, until it answers. */
  private keepsServerAlive(busy: boolean): void {
    if (busy) {
      this.child.ref();
      this.child.channel?.ref();
    } else {
      this.child.unref();
      this.child.channel?.unref();
    }
  }
}

function previewOf(answer: Answer | undefined, overran: boolean): Preview {
  if (answer === undefined) return { ok: false, problem: overran ? 'time limit' : 'the preview process ended' };
  if ('ready' in answer) return { ok: false, problem: 'the preview process answered out of turn' };
  if (!answer.ok) return answer;
  const bytes = Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
  return { ok: true, bytes, width: answer.width, height: answer.height };
}

/**
 * At most `size` preview processes, each making one preview at a time; pictures wait their turn, which
 * goes round the lookups waiting, one picture each, so that one lookup's many pictures do not hold
 * another's one behind them (red team: 11.7 s for a lookup of 0.26 s alone). A process is started when first needed and kept for the next picture (starting one costs about
 * 0.3 s), unless its picture overran, it did not start, or it died: then the next picture gets a new one.
 */
export class PreviewPool {
  private readonly slots: PreviewSlots;
  private readonly idle: PreviewProcess[] = [];
  private readonly working = new Set<PreviewProcess>();
  private closed = false;

  constructor(size: number) {
    this.slots = new PreviewSlots(size);
  }

  /** Pictures being reduced, or waiting for their overrun process to end. */
  get inUse(): number {
    return this.slots.inUse;
  }

  /**
   * The preview of one picture, or why there is none; its place in the pool is held until its process is
   * done with it. With no `turn`, the picture waits in a line of its own.
   */
  async run(job: PreviewJob, turn?: PreviewTurn): Promise<Preview> {
    const release = await this.slots.take(turn?.lookup);
    if (this.closed) {
      release();
      return { ok: false, problem: 'the server is stopping' };
    }
    if (turn && !turn.wanted()) {
      release();
      return { ok: false, problem: 'no longer waited for' };
    }
    let worker: PreviewProcess;
    try {
      worker = this.takeIdle() ?? new PreviewProcess();
    } catch (error) {
      // The program not found, or no process to be had: no previews, and the lookups go on without them.
      release();
      return { ok: false, problem: error instanceof Error ? error.message : 'the preview process did not start' };
    }
    this.working.add(worker);
    try {
      if (!(await worker.ready)) {
        await worker.kill();
        return { ok: false, problem: 'the preview process did not start' };
      }
      return await worker.reduce(job);
    } finally {
      this.working.delete(worker);
      if (worker.alive && !this.closed) this.idle.push(worker);
      release();
    }
  }

  /** A process kept from an earlier picture, unless each has died since. */
  private takeIdle(): PreviewProcess | undefined {
    for (let worker = this.idle.pop(); worker; worker = this.idle.pop()) if (worker.alive) return worker;
    return undefined;
  }

  /** Every process ended (the server stops): a picture being reduced gets no preview. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle.splice(0), ...this.working].map((worker) => worker.kill()));
  }
}
