import { hashPassword } from '../../src/server/auth/passwords.ts';

/**
 * A users file's password hash at a low scrypt cost (N = 2^10): the hash names its cost and sign-in reads
 * it, so everything but the CPU spent is as in production, where each check takes about 100 ms (N = 2^15)
 * and the sign-in tests make hundreds.
 */
export const testPasswordHash = (password: string): Promise<string> => hashPassword(password, { N: 2 ** 10, r: 8, p: 1 });
