/**
 * Counts the patterns built with `new RegExp` (or `RegExp(…)`) from now until `stop`: a literal is built
 * once, where it is written, and is not counted. For the attacks that made a pattern per item of a record.
 */
export function countPatterns(): { count: () => number; stop: () => void } {
  const real = globalThis.RegExp;
  let built = 0;
  globalThis.RegExp = new Proxy(real, {
    construct(target, args, newTarget) {
      built++;
      return Reflect.construct(target, args, newTarget);
    },
    apply(target, self, args) {
      built++;
      return Reflect.apply(target, self, args);
    },
  });
  return {
    count: () => built,
    stop: () => {
      globalThis.RegExp = real;
    },
  };
}
