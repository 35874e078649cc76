// @ts-check
/**
 * The preview process's program (preview-pool.ts runs it with Node, with sharp's path as its one argument
 * and nothing of the server's environment; the server build makes it dist/server/preview-child.js). It reduces one picture at a time to
 * a preview and answers over its IPC channel. It is a process of its own because a libvips call cannot be
 * interrupted: sharp's `timeout` is not looked at while librsvg renders an SVG, for one, and a thread
 * busy in one also holds `process.exit` (libuv joins its threads at exit). So the server kills this
 * process when a picture overruns its time, or when the server stops, and none of this touches the
 * server's own threads, which its audit writes and sign-ins need.
 *
 * Only JPEG, PNG and WebP from a buffer are decoded: the server sends nothing else, and libvips is told so
 * too (every loader blocked, those three unblocked), as sharp and libvips advise for untrusted input, with
 * libvips's own list of untrusted operations blocked as well (VIPS_BLOCK_UNTRUSTED, set by the pool).
 */
import { pathToFileURL } from 'node:url';

/** @typedef {{ bytes: Uint8Array; longSide: number; maxInputPixels: number }} Job */

const sharpPath = process.argv[2];
if (!sharpPath) throw new Error('preview-child: the path of sharp is its argument');
/** @type {typeof import('sharp').default} */
const sharp = (await import(pathToFileURL(sharpPath).href)).default;

sharp.block({ operation: ['VipsForeignLoad'] });
sharp.unblock({ operation: ['VipsForeignLoadJpegBuffer', 'VipsForeignLoadPngBuffer', 'VipsForeignLoadWebpBuffer'] });
// One picture at a time, on one libvips thread: the process is one of the pool's slots, one core at most.
sharp.concurrency(1);
// Nothing of one candidate's pictures is kept for the next.
sharp.cache(false);

/** @param {Job} job */
async function reduce(job) {
  try {
    const { data, info } = await sharp(job.bytes, { limitInputPixels: job.maxInputPixels, failOn: 'error', autoOrient: true })
      .resize(job.longSide, job.longSide, { fit: 'inside', withoutEnlargement: true })
      // A transparent PNG on white, as the page's card shows it.
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 78 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: data, width: info.width, height: info.height };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : 'not decodable' };
  }
}

process.on('message', (/** @type {Job} */ job) => {
  void reduce(job).then((preview) => process.send?.(preview));
});
// The server has gone (stopped, or killed): so does this process, at once, whatever libvips is doing.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
process.send?.({ ready: true });
