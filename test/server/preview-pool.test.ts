import { describe, expect, it } from 'vitest';
import { PreviewPool } from '../../src/server/answer/preview-pool.ts';
import { greyTiff, heavySvg } from '../fixtures/hostile-pictures.mjs';
import { noiseJpeg, noisePng } from './preview-pictures.ts';
import { isRunning, previewProcesses } from './preview-processes.ts';

/**
 * The preview processes (src/server/answer/preview-pool.ts, issue 31): sharp runs there, one picture at a
 * time per process, and a picture that overruns has its process killed and keeps its place in the pool
 * until that process has ended. With a real sharp; the processes are watched in /proc.
 */

const job = (bytes: Buffer, timeLimitMs = 20_000) => ({ bytes, longSide: 64, maxInputPixels: 50_000_000, timeLimitMs });

describe('the preview processes', () => {
  it('attack: a preview process handed another type refuses it too: libvips has every loader but those three blocked', async () => {
    const pool = new PreviewPool(1);
    try {
      for (const bytes of [greyTiff(64, 64), Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(100)]), heavySvg(1, 0)]) {
        expect(await pool.run(job(bytes))).toEqual({ ok: false, problem: expect.stringMatching(/unsupported image format/) });
      }
      expect(await pool.run(job(await noiseJpeg(300, 200)))).toMatchObject({ ok: true, width: 64, height: 43 });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('a preview that overruns keeps its slot until it ends: never two preview processes of a pool of one at once', async () => {
    const pool = new PreviewPool(1);
    const large = await noisePng(2400, 2400);
    const seen = new Set<number>();
    let most = 0;
    const watch = setInterval(() => {
      const living = previewProcesses();
      for (const pid of living) seen.add(pid);
      most = Math.max(most, living.length);
    }, 5);
    try {
      const small = await noiseJpeg(300, 200);
      const overrun = pool.run(job(large, 50));
      const next = pool.run(job(small));
      expect(await overrun).toEqual({ ok: false, problem: 'time limit' });
      // Its process was killed, and had ended before the picture gave its place up.
      const [first] = seen;
      expect(first).toBeDefined();
      expect(isRunning(first!)).toBe(false);
      expect(await next).toMatchObject({ ok: true });
      expect(seen.size).toBe(2);
      expect(most).toBe(1);
      expect(pool.inUse).toBe(0);
    } finally {
      clearInterval(watch);
      await pool.close();
    }
    expect(previewProcesses()).toEqual([]);
  }, 60_000);
});
