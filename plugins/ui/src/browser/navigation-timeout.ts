import { ToolInputError } from "@clawtools/core";
import { withTimeout } from "@clawtools/core/time";
import type { Page } from "playwright-core";

/** How long stopping a navigation that ran out of time may take before it is left as it is. */
const STOP_WAIT_MS = 2_000;

/** Playwright's own timeout (its `TimeoutError`), not a failure of the page. */
export const isPlaywrightTimeout = (error: unknown) =>
  error instanceof Error && error.name === "TimeoutError";

/**
 * Runs a navigation (goto, back, forward). One that runs out of time is stopped: see
 * `stopNavigation`. `target` names what was loading ("The page at <url>").
 */
export async function navigateWithin<T>(
  page: Page,
  timeoutMs: number,
  target: string,
  navigation: () => Promise<T>,
): Promise<T> {
  try {
    return await navigation();
  } catch (error) {
    if (!isPlaywrightTimeout(error) || page.isClosed()) throw error;
    throw await stopNavigation(page, timeoutMs, target);
  }
}

/**
 * Stops a navigation that ran out of time, as the stop button does, and answers the error to
 * throw. Left pending, it would hold the tab: every later script, snapshot or screenshot in it
 * waits on the document that never comes (Playwright's evaluate, without end). The error says
 * where the page is and how to wait longer, in one line (Playwright's own message carries a
 * call log with terminal colour codes).
 */
export async function stopNavigation(page: Page, timeoutMs: number, target: string): Promise<ToolInputError> {
  const stopped = await withTimeout(stopLoading(page), STOP_WAIT_MS, { onTimeout: () => false }).catch(
    () => false,
  );
  const where = page.url() || "about:blank";
  if (!stopped)
    return new ToolInputError(
      `${target} did not finish loading within ${timeoutMs} ms and could not be stopped (the page shows ${where}; a script in it may be busy). Close the tab (action=close) and open the page again.`,
    );
  return new ToolInputError(
    `${target} did not finish loading within ${timeoutMs} ms, so loading was stopped (the page stays at ${where}). Try again, or raise browser.actionTimeoutMs in the ui configuration for slow pages.`,
  );
}

/** Chromium's stop (CDP `Page.stopLoading`): ends the pending navigation and the page's loads. */
async function stopLoading(page: Page): Promise<boolean> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send("Page.stopLoading");
    return true;
  } finally {
    await session.detach().catch(() => {});
  }
}
