/** The process's environment as the configuration reads it (process.env, or a test's own). */
export type Environment = Record<string, string | undefined>;

/**
 * A variable's value, set and not blank; undefined otherwise. Only the environment's own entries: a name
 * the configuration gives (`apiKeyEnv: "toString"`) must never reach what every object inherits.
 */
export function variableOf(env: Environment, name: string): string | undefined {
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  return typeof value === 'string' && value.trim() ? value : undefined;
}
