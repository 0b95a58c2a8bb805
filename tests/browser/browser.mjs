// Headless Chromium for the report tests: Debian's /usr/bin/chromium (or
// $HTPSCOPE_CHROMIUM) driven by playwright-core, with a fresh profile each
// launch and the flags this sandbox needs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.HTPSCOPE_CHROMIUM || "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Opens a browser context with `options` (viewport, colorScheme...).  Close
// it with the returned close(), which also removes the profile.
export async function openBrowser(options = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), "htpscope-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 1000 },
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
