/**
 * How the e2e runs launch Debian's Chromium (never a downloaded browser): the flags this closed
 * machine needs, shared by playwright.config.ts and specs that add flags of their own.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const chromiumExecutable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
