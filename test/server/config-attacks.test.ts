import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readUsersFile } from '../../src/server/auth/users-file.ts';
import { ConfigError, parseConfig } from '../../src/server/config/config.ts';
import { syntaxErrorOffset } from '../../src/server/config/json-text.ts';
import { readSecretFile, SECRET_FILE_MAX_BYTES } from '../../src/server/config/secrets.ts';
import { loadSandboxData } from '../../src/server/sandbox/data-file.ts';
import { configErrorOf } from './config-error.ts';
import { startInProcess } from './in-process.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-config-attacks-'));
let n = 0;
function fileWith(content: string): string {
  const file = path.join(dir, `file-${++n}.json`);
  writeFileSync(file, content);
  return file;
}

/** Every run of `length` characters of `secret`: none may be in a message. */
const partsOf = (secret: string, length: number) =>
  Array.from({ length: secret.length - length + 1 }, (_, index) => secret.slice(index, index + length));

const KEY = 'sk_Zq9XkP2vW7mR4tY8Jd';
const ENTRY = { name: 'prod', label: 'Production', baseUrl: 'https://kyc.example.org', clientId: 'acme' };

describe('attack: a JSON syntax error beside an inline key prints no part of the key (issue 31, finding 6)', () => {
  it('attack: a JSON syntax error beside an inline key prints no part of the key', () => {
    // The key pasted without its quotes: Node's JSON.parse message quoted the text around the mistake.
    const broken = fileWith(`[${JSON.stringify({ ...ENTRY, apiKey: 'X' }).replace('"X"', KEY)}]`);
    const wellFormed = fileWith(JSON.stringify([{ ...ENTRY, apiKey: KEY, statusApiKey: `${KEY}-status` }]));
    for (const file of [broken, wellFormed]) {
      const message = configErrorOf({ KYC_ENVIRONMENTS_FILE: file });
      for (const part of partsOf(KEY, 4)) expect(message).not.toContain(part);
      // The format that kept keys beside other settings is refused outright, saying how to convert it.
      expect(message).toContain(
        'KYC_ENVIRONMENTS_FILE is no longer read: put it in CONFIG_FILE at environments[], each entry of its list as it is but with "apiKey" replaced by "apiKeyEnv" (the variable that holds the key) or "apiKeyFile" (a file that holds the key alone), and "statusApiKey" by "statusApiKeyEnv" or "statusApiKeyFile" (docs/environments.md#from-kyc_environments_file).',
      );
    }
  });

  it('attack: a JSON syntax error in CONFIG_FILE beside a pasted key is placed by line and column, quoting nothing', () => {
    const file = fileWith(`{\n  "environments": [\n    { "name": "prod", "apiKeyEnv": ${KEY} }\n  ]\n}\n`);
    expect(configErrorOf({ CONFIG_FILE: file })).toBe(
      `Invalid configuration:\n  CONFIG_FILE ${file}: the file is not valid JSON at line 3, column 36`,
    );
    const cut = fileWith(`{ "environments": [{ "apiKeyEnv": "${KEY}`);
    const message = configErrorOf({ CONFIG_FILE: cut });
    expect(message).toContain(`CONFIG_FILE ${cut}: the file is not valid JSON: it ends too soon (line 1, column 57)`);
    for (const part of partsOf(KEY, 4)) expect(message).not.toContain(part);
  });

  it('attack: a JSON syntax error in the users file or the sandbox data quotes no part of the file', () => {
    const hash = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0$ZGVyaXZlZGRlcml2ZWRkZXJpdmVk';
    const users = fileWith(`{"users":[{"username":"ana","passwordHash":${hash},"role":"compliance"}]}`);
    const data = fileWith(`[{"recordId":"r1","refId":"a","status":"approved","identities":{"name":${KEY}}}]`);
    const messageOf = (read: () => unknown) => {
      try {
        read();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a ConfigError');
    };
    const usersMessage = messageOf(() => readUsersFile(users));
    expect(usersMessage).toBe(`signIn.usersFile: ${users} is not valid JSON at line 1, column 44`);
    for (const part of partsOf(hash, 4)) expect(usersMessage).not.toContain(part);
    const dataMessage = messageOf(() => loadSandboxData(data));
    expect(dataMessage).toMatch(/^sandbox\.data: .* is not valid JSON at line 1, column 72$/);
    for (const part of partsOf(KEY, 4)) expect(dataMessage).not.toContain(part);
  });

  it('never prints 6 characters in a row of a secret, whatever malformed configuration holds it (property)', () => {
    // Anywhere a key may be pasted by mistake: inline, in place of a variable's name or a file's path, as any field.
    const fields = [
      'apiKey',
      'apiKeyEnv',
      'apiKeyFile',
      'webhookSecretEnv',
      'name',
      'label',
      'clientId',
      'baseUrl',
      'tone',
      'dashboardUrl',
      'bare',
    ] as const;
    // A key as issued (visible ASCII), or one shaped like a variable's name (sk_live_…).
    const secrets = fc.oneof(fc.stringMatching(/^[\x21-\x7e]{8,40}$/), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{7,39}$/));
    fc.assert(
      fc.property(
        secrets,
        fc.constantFrom(...fields),
        fc.constantFrom('none', 'cut', 'drop', 'insert'),
        fc.nat(),
        fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'x', ' ', '\n'),
        fc.constantFrom('CONFIG_FILE', 'KYC_ENVIRONMENTS_FILE'),
        fc.boolean(),
        (secret, field, mutation, at, character, variable, indent) => {
          // A "secret" that names a file or directory there is a path, and a path is named in messages.
          fc.pre(field !== 'apiKeyFile' || !existsSync(secret));
          const messageWith = (value: string) => {
            const entry = { ...ENTRY, apiKeyEnv: 'UNSET_KEY', [field === 'bare' ? 'apiKey' : field]: value };
            let text = JSON.stringify({ environments: [entry] }, null, indent ? 2 : undefined);
            if (field === 'bare') text = text.replace(JSON.stringify(value), value);
            const index = at % (text.length + 1);
            if (mutation === 'cut') text = text.slice(0, index);
            if (mutation === 'drop') text = text.slice(0, index) + text.slice(index + 1);
            if (mutation === 'insert') text = text.slice(0, index) + character + text.slice(index);
            const file = fileWith(text);
            return configErrorOf({ [variable]: file }).replaceAll(file, '<file>');
          };
          const message = messageWith(secret);
          // The messages' own words (a secret may contain "ments_"): what the same file without the secret says too.
          const ownWords = messageWith('§'.repeat(secret.length));
          for (const part of partsOf(secret, 6)) if (!ownWords.includes(part)) expect(message).not.toContain(part);
        },
      ),
    );
  });

  it('finds a mistake exactly where JSON.parse refuses the text, within it (property)', () => {
    const mutated = fc.tuple(
      fc.json(),
      fc.nat(),
      fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '1', '-', 'e', 't', ' ', '\u0001'),
    );
    fc.assert(
      fc.property(mutated, fc.constantFrom('cut', 'drop', 'insert', 'none'), ([json, at, character], mutation) => {
        const index = at % (json.length + 1);
        const text =
          mutation === 'cut'
            ? json.slice(0, index)
            : mutation === 'drop'
              ? json.slice(0, index) + json.slice(index + 1)
              : mutation === 'insert'
                ? json.slice(0, index) + character + json.slice(index)
                : json;
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const offset = syntaxErrorOffset(text);
        expect(offset === undefined).toBe(valid);
        if (offset !== undefined) expect(offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('attack: apiKeyEnv naming what every object inherits (toString, constructor, __proto__)', () => {
  it('attack: apiKeyEnv naming what every object inherits is "not set", a ConfigError, never a TypeError', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const file = fileWith(JSON.stringify({ environments: [{ ...ENTRY, apiKeyEnv: name }] }));
      expect(configErrorOf({ CONFIG_FILE: file })).toMatch(/apiKeyEnv: the variable it names is not set/);
    }
  });
});

describe('attack: apiKeyFile: /dev/zero is refused at start, naming the setting (issue 31, finding 7)', () => {
  const fifo = path.join(dir, 'secret.fifo');
  execFileSync('mkfifo', [fifo]);
  const directory = path.join(dir, 'secret.d');
  mkdirSync(directory);
  const large = fileWith('k'.repeat(SECRET_FILE_MAX_BYTES + 1024));

  /** Each kind of secret file: the environment and CONFIG_FILE content naming `file`, and the setting's name in the message. */
  const SETTINGS: Array<[string, (file: string) => [Record<string, string>, unknown?]]> = [
    ['KYC_API_KEY_FILE', (file) => [{ KYC_API_KEY_FILE: file }]],
    ['KYC_API_KEY_STATUS_FILE', (file) => [{ KYC_API_KEY_STATUS_FILE: file }]],
    ['KYC_WEBHOOK_SECRET_FILE', (file) => [{ KYC_WEBHOOK_SECRET_FILE: file }]],
    ['REDIS_URL_FILE', (file) => [{ REDIS_URL_FILE: file }]],
    ['environments[0].apiKeyFile', (file) => [{}, { environments: [{ ...ENTRY, apiKeyFile: file }] }]],
    ['environments[0].statusApiKeyFile', (file) => [{ K: 'k' }, { environments: [{ ...ENTRY, apiKeyEnv: 'K', statusApiKeyFile: file }] }]],
    [
      'environments[0].webhookSecretFile',
      (file) => [{ K: 'k' }, { environments: [{ ...ENTRY, apiKeyEnv: 'K', webhookSecretFile: file }] }],
    ],
    [
      'signIn.clientSecretFile',
      (file) => [
        {},
        {
          signIn: {
            mode: 'oidc',
            issuer: 'https://login.example.org',
            clientId: 'cl',
            clientSecretFile: file,
            redirectUrl: 'http://127.0.0.1:8080/api/oidc/callback',
            supportValues: ['support'],
          },
        },
      ],
    ],
  ];
  const PATHS: Array<[string, string, (setting: string) => string]> = [
    ['/dev/zero', '/dev/zero', (setting) => `${setting} must name a regular file: /dev/zero is a device`],
    ['a FIFO', fifo, (setting) => `${setting} must name a regular file: ${fifo} is a FIFO (named pipe)`],
    ['a directory', directory, (setting) => `${setting} must name a regular file: ${directory} is a directory`],
    ['a 65 KiB file', large, (setting) => `${setting}: the file ${large} is larger than 64 KiB; a secret file holds one secret`],
  ];

  it.each(
    SETTINGS.flatMap(([setting, configOf]) =>
      PATHS.map(([kind, file, problem]) => [setting, kind, configOf(file), problem(setting)] as const),
    ),
  )('attack: %s naming %s is refused at start, naming the setting', (_setting, _kind, [env, file], problem) => {
    const message = configErrorOf(env, file);
    expect(message).toContain(problem);
    expect(message).not.toContain('kkkkkk');
  });

  it('attack: apiKeyFile: /dev/zero is refused at start, naming the setting', async () => {
    const config = fileWith(JSON.stringify({ environments: [{ ...ENTRY, apiKeyFile: '/dev/zero' }] }));
    await expect(startInProcess({ CONFIG_FILE: config })).rejects.toThrow(
      new ConfigError(
        `Invalid configuration:\n  CONFIG_FILE ${config}: environments[0].apiKeyFile must name a regular file: /dev/zero is a device`,
      ),
    );
    // CONFIG_FILE itself is bounded the same way.
    expect(configErrorOf({ CONFIG_FILE: '/dev/zero' })).toContain('CONFIG_FILE must name a regular file: /dev/zero is a device');
    expect(configErrorOf({ CONFIG_FILE: fifo })).toContain(`CONFIG_FILE must name a regular file: ${fifo} is a FIFO (named pipe)`);
  });

  it('reads a secret file of 64 KiB, and at most one byte past the bound of a file whose size said less', () => {
    const full = fileWith('k'.repeat(SECRET_FILE_MAX_BYTES));
    expect(readSecretFile(full, 'KYC_API_KEY_FILE')).toHaveLength(SECRET_FILE_MAX_BYTES);
    // /proc/kallsyms says 0 bytes and holds megabytes, as a file that grows after it was looked at.
    expect(readSecretFile('/proc/kallsyms', 'KYC_API_KEY_FILE')).toEqual({
      problem: 'KYC_API_KEY_FILE: the file /proc/kallsyms is larger than 64 KiB; a secret file holds one secret',
    });
    expect(parseConfig({ REDIS_URL_FILE: fileWith('redis://:pw@redis.internal:6379\n') }).redisUrl).toBe('redis://:pw@redis.internal:6379');
  });
});
