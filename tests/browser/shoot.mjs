// node shoot.mjs REPORT.html OUT.png [--dark] [--section KEY] [--width PX] [--height PX]
// Screenshot of a report (the whole page, or one section) for docs and review.
import { pathToFileURL } from "node:url";
import { openBrowser } from "./browser.mjs";

const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); return i < 0 ? null : args.splice(i, 2)[1]; };
const dark = args.includes("--dark");
if (dark) args.splice(args.indexOf("--dark"), 1);
const section = flag("--section");
const width = Number(flag("--width") || 1400);
const height = Number(flag("--height") || 0);
const [report, out] = args;
if (!report || !out) {
  console.error("usage: node shoot.mjs REPORT.html OUT.png [--dark] [--section KEY] [--width PX] [--height PX]");
  process.exit(2);
}
const browser = await openBrowser({ viewport: { width, height: height || 1000 }, colorScheme: dark ? "dark" : "light" });
try {
  const page = await browser.context.newPage();
  page.on("console", (m) => { if (m.type() === "error") console.error("console:", m.text()); });
  await page.goto(pathToFileURL(report).href);
  await page.waitForFunction(() => window.htpscopeReport !== undefined);
  if (section) {
    await page.addStyleTag({ content: "header#top { position: static !important; }" });
    await page.locator(`[data-section="${section}"]`).screenshot({ path: out });
  }
  else await page.screenshot({ path: out, fullPage: !height });
} finally {
  await browser.close();
}
