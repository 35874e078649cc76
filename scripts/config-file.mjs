// @ts-check
// The bench and load tests start the built server with a CONFIG_FILE of their own (docs/configuration.md).
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** Sign-in by the identity-aware proxy's headers, which the scripts send from this machine. */
export const PROXY_SIGN_IN = {
  mode: 'proxy',
  userHeader: 'X-Forwarded-User',
  roleHeader: 'X-Forwarded-Role',
  trustedProxies: ['127.0.0.1/32'],
};

/**
 * Writes `content` as a CONFIG_FILE in `dir` and returns its path.
 * @param {string} dir
 * @param {object} content
 * @returns {string}
 */
export function writeConfigFile(dir, content) {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}
