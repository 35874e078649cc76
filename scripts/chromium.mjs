// @ts-check
/**
 * How Debian's Chromium is launched by the browser suite and the bench: never a downloaded browser
 * (CHROMIUM_PATH overrides where it is), no sandbox (containers and CI run as root), and none of the
 * background traffic that would add noise to a measurement or reach for the network.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
