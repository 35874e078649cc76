import { parseArgs } from 'node:util';
import { ConfigError, type SandboxSettings } from '../config/config.ts';
import { removedVariablesIn } from '../config/removed-variables.ts';
import { isListShape, LIST_SHAPES } from '../config/file-schema.ts';

export interface SandboxArgs extends SandboxSettings {
  /** Loopback unless --host says otherwise: never HOST, since the sandbox's keys are documented. */
  host: string;
  port: number;
}

const USAGE =
  'usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--data candidates.json] [--large-images] [--hostile] [--test-controls] [--list-shape older|early|current|recordId]';

/**
 * `npm run sandbox`'s flags: its switches are a command's, not the production server's configuration.
 * A SANDBOX_* variable of before is refused with the flag that replaced it.
 */
export function parseSandboxArgs(argv: string[], env: Record<string, string | undefined> = process.env): SandboxArgs {
  const removed = removedVariablesIn(env).filter((line) => line.startsWith('SANDBOX_'));
  if (removed.length > 0) throw new ConfigError(`Invalid configuration:\n${removed.map((line) => `  ${line}`).join('\n')}`);
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\n${USAGE}`);
  }
  const port = values.port === undefined ? 4010 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`--port must be a whole number from 0 to 65535.\n${USAGE}`);
  const listShape = values['list-shape'];
  if (listShape !== undefined && !isListShape(listShape))
    throw new ConfigError(`--list-shape must be one of ${LIST_SHAPES.join(', ')}.\n${USAGE}`);
  return {
    host: values.host ?? '127.0.0.1',
    port,
    ...(values.data ? { dataFile: values.data } : {}),
    largeImages: values['large-images'] ?? false,
    hostile: values.hostile ?? false,
    testControls: values['test-controls'] ?? false,
    ...(listShape ? { listShape } : {}),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'large-images': { type: 'boolean' },
      hostile: { type: 'boolean' },
      'test-controls': { type: 'boolean' },
      'list-shape': { type: 'string' },
    },
  });
}
