import { readFileSync } from 'node:fs';
import { SECRET_VARIABLES } from './config-schema.ts';
import type { Environment } from './removed-variables.ts';

/** A secret's file: its content without the line break an editor or `echo` leaves at the end. */
export function readSecretFile(file: string): string | { problem: string } {
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    return { problem: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/**
 * The environment with each secret's NAME_FILE read into NAME. Both set is a mistake said at start (which
 * one would win is a guess); a file that cannot be read is named, its content never.
 */
export function withSecretFiles(env: Environment): { env: Environment; problems: string[] } {
  const out: Environment = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set: give the secret one way.`);
      continue;
    }
    const value = readSecretFile(file);
    if (typeof value === 'string') out[name] = value;
    else problems.push(`${name}_FILE: ${value.problem}`);
  }
  return { env: out, problems };
}
