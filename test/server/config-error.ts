import { expect } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config/config.ts';

/** The message of the ConfigError that `parseConfig` throws for these variables and file; fails if none is thrown. */
export function configErrorOf(env: Record<string, string>, file?: unknown): string {
  try {
    parseConfig(env, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}
