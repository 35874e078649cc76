import { prepareRun, stopServers } from './servers.ts';

/** Before the browser suite: a clean slate of files; after it, every server it started is stopped. */
export default function globalSetup(): () => void {
  prepareRun();
  return stopServers;
}
