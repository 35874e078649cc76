import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/server/http/loopback.ts';

describe('isLoopbackHost', () => {
  it('knows loopback names and addresses, with or without a port or brackets', () => {
    for (const host of ['localhost', 'LOCALHOST:8080', '127.0.0.1', '127.1.2.3:80', '::1', '[::1]', '[::1]:4173', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('refuses everything else, including names that only look like loopback', () => {
    for (const host of [
      undefined,
      '',
      '0.0.0.0',
      '10.0.0.1',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      '[::2]',
      'example.com:127',
    ]) {
      expect(isLoopbackHost(host), String(host)).toBe(false);
    }
  });
});
