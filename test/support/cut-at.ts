/**
 * The bytes cut into chunks at these places (each taken modulo the length, repeats dropped), in order:
 * how the answer readers' property tests hand a body over as the network might, chunk by chunk.
 */
export function cutAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, i) => bytes.subarray(from, at[i] ?? bytes.length));
}
