import { parseArgs } from 'node:util';
import readline from 'node:readline';
import { ROLES, type Role } from '../../kyc/contract/api.ts';
import { environmentWithDotenv } from '../config/config.ts';
import { readConfigFile } from '../config/read-config.ts';
import { commaList } from '../config/config-fields.ts';
import { hashPassword } from '../auth/passwords.ts';
import { upsertUser, USERNAME_PATTERN } from '../auth/users-file.ts';
import { type Ask, askNewPassword, PasswordRefused } from '../auth/new-password.ts';

/**
 * `npm run user:add -- <name> --role <support|compliance|lead> [--file users.json]`: asks for the password
 * (twice, hidden) and writes the user with a scrypt hash to the users file (signIn.usersFile).
 * Without a terminal, the password is read from the first line of standard input.
 */

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** Each answer typed at a terminal, echoing nothing of it; without one, the lines of standard input in turn. */
async function answers(): Promise<Ask> {
  if (!process.stdin.isTTY) {
    const lines: string[] = [];
    const rl = readline.createInterface({ input: process.stdin });
    for await (const line of rl) lines.push(line);
    return async () => lines.shift();
  }
  return (prompt: string) =>
    new Promise<string>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (text: string) => {
        if (text.startsWith(prompt)) process.stdout.write(prompt);
      };
      rl.question(prompt, (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
    });
}

async function main(): Promise<void> {
  const usage = 'usage: npm run user:add -- <username> --role <support|compliance|lead> [--environments prod,staging] [--file users.json]';
  let parsed: ReturnType<typeof readArguments>;
  try {
    parsed = readArguments();
  } catch (error) {
    // An unknown option or a missing value: said in one line with the usage, not as a stack trace.
    fail(`${(error as Error).message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage);
    return;
  }
  const username = positionals[0];
  if (!username || positionals.length > 1) fail(usage);
  if (!USERNAME_PATTERN.test(username)) fail('The username must be 1 to 64 letters, digits or . _ @ -');
  if (!values.role || !(ROLES as readonly string[]).includes(values.role)) fail(`--role must be support, compliance or lead.\n${usage}`);
  const configured = configuredUsersFile();
  const file = values.file ?? configured ?? 'users.json';

  const password = await askNewPassword(await answers()).catch((error: unknown) => {
    if (error instanceof PasswordRefused) fail(error.message);
    throw error;
  });

  const environments = values.environments === undefined ? undefined : commaList(values.environments);
  const result = upsertUser(file, {
    username,
    passwordHash: await hashPassword(password),
    role: values.role as Role,
    ...(environments ? { environments } : {}),
  });
  console.log(`${result === 'added' ? 'Added' : 'Updated'} ${username} (${values.role}) in ${file}.`);
  if (!configured) console.log(`Set "signIn": { "mode": "users", "usersFile": "${file}" } in CONFIG_FILE to require sign-in.`);
}

function readArguments() {
  return parseArgs({
    allowPositionals: true,
    options: {
      role: { type: 'string' },
      file: { type: 'string' },
      environments: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** CONFIG_FILE's users file, when sign-in is by built-in users. */
function configuredUsersFile(): string | undefined {
  const configFile = environmentWithDotenv(process.env, process.cwd()).CONFIG_FILE?.trim();
  const signIn = configFile ? readConfigFile(configFile, undefined).file?.signIn : undefined;
  return signIn?.mode === 'users' ? signIn.usersFile : undefined;
}

await main();
