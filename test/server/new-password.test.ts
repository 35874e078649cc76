import { describe, expect, it } from 'vitest';
import { askNewPassword, MIN_PASSWORD_LENGTH } from '../../src/server/auth/new-password.ts';

/** `npm run user:add`'s questions, answered from a list; the prompts asked are kept. */
function answering(...answers: (string | undefined)[]) {
  const asked: string[] = [];
  const ask = async (prompt: string) => {
    asked.push(prompt);
    return answers.shift();
  };
  return { ask, asked };
}

describe('npm run user:add: the new password', () => {
  it('refuses a short password before asking for it a second time', async () => {
    const { ask, asked } = answering('too short', 'too short');
    await expect(askNewPassword(ask)).rejects.toThrow(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
    expect(asked).toEqual(['Password: ']);
  });

  it('refuses a password of one character fewer than the least, and takes one of exactly the least', async () => {
    const short = 'x'.repeat(MIN_PASSWORD_LENGTH - 1);
    await expect(askNewPassword(answering(short).ask)).rejects.toThrow('at least');
    const enough = 'x'.repeat(MIN_PASSWORD_LENGTH);
    const { ask, asked } = answering(enough, enough);
    await expect(askNewPassword(ask)).resolves.toBe(enough);
    expect(asked).toEqual(['Password: ', 'Password again: ']);
  });

  it('refuses two passwords that differ, after asking both', async () => {
    const { ask, asked } = answering('a long enough password', 'a long enough passw0rd');
    await expect(askNewPassword(ask)).rejects.toThrow('The two passwords differ.');
    expect(asked).toHaveLength(2);
  });

  it('takes one line from a pipe (no second answer), and refuses an empty input', async () => {
    await expect(askNewPassword(answering('a long enough password').ask)).resolves.toBe('a long enough password');
    await expect(askNewPassword(answering().ask)).rejects.toThrow('at least');
  });
});
