export const MIN_PASSWORD_LENGTH = 12;

/** Asks one question and gives the answer; undefined when there is nothing more to read. */
export type Ask = (prompt: string) => Promise<string | undefined>;

export class PasswordRefused extends Error {
  override name = 'PasswordRefused';
}

/**
 * A new password, asked twice. Its length is checked after the first answer: one too short is refused
 * before anybody types it a second time. Read from a pipe, the second line may be absent.
 */
export async function askNewPassword(ask: Ask): Promise<string> {
  const password = (await ask('Password: ')) ?? '';
  if (password.length < MIN_PASSWORD_LENGTH) throw new PasswordRefused(`The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  const again = await ask('Password again: ');
  if (again !== undefined && again !== password) throw new PasswordRefused('The two passwords differ.');
  return password;
}
