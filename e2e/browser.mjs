// Shared launch settings for headless Debian Chromium on this kind of machine.
import { chromium } from 'playwright-core';

export const BOOK_URL = process.env.BOOK_URL || 'http://127.0.0.1:8080';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

// Pages arrive pre-rendered; the page's wasm then mounts the live parts
// (cells, exercises, the scratch cell) and marks <html data-ready>. Interacting
// before that would type into the pre-rendered copy that the mount replaces.
export async function ready(page) {
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
}
