import { accessSync, constants } from "node:fs";

const CANDIDATES = [
  // Debian's binary itself: /usr/bin/chromium is a shell launcher that forks grep, findmnt, ls
  // and tr to add desktop switches (extensions, GPU rasterisation) a headless browser driven by
  // Playwright turns off anyway; starting the binary saves 30-40 ms of every browser start
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
];

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The message when no Chromium is found: it names the Debian package, never a download. */
export const NO_CHROMIUM =
  "No Chromium found. Install Debian's chromium package (apt-get install chromium), or set browser.executablePath in the ui configuration or CHROMIUM_PATH to a Chromium or Chrome binary.";

/**
 * The Chromium to run: the configured path, then `CHROMIUM_PATH`, then the usual locations.
 * A configured path that is not executable is an error (never silently replaced).
 */
export function findChromium(configured?: string, env: NodeJS.ProcessEnv = process.env): string {
  const explicit = configured ?? env.CHROMIUM_PATH;
  if (explicit) {
    if (!executable(explicit)) throw new Error(`Chromium not executable at ${explicit}. ${NO_CHROMIUM}`);
    return explicit;
  }
  const found = CANDIDATES.find(executable);
  if (!found) throw new Error(NO_CHROMIUM);
  return found;
}
