/** Two ways a store avoids doing the same work again: a step done once, and an answer kept a while. */

/** The last answer of `read` for `ms`, asked again after that (a failure is not kept). */
export function remembered<T>(read: () => Promise<T>, ms: number): () => Promise<T> {
  let kept: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (kept && Date.now() - kept.at < ms) return kept.value;
    const value = read();
    kept = { at: Date.now(), value };
    value.catch(() => {
      kept = undefined;
    });
    return value;
  };
}

/** A step done once; after a failure, tried again at the next call (the schema, while the database is away). */
export function once(step: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= step().catch((error: unknown) => {
      done = undefined;
      throw error;
    });
    return done;
  };
}
