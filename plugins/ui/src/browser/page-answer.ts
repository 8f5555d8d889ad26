import { ToolInputError } from "@clawtools/core";
import { withTimeout } from "@clawtools/core/time";
import type { Page } from "playwright-core";
import type { ActRequest } from "../driver/act-request.js";
import { isPlaywrightTimeout } from "./navigation-timeout.js";

/** How long a tab's title is waited for in a listing; a busy page is listed without one. */
const TITLE_WAIT_MS = 2_000;
/** Room beyond an action's own waits: the stop of a navigation it started, the answer's reads. */
export const SLACK_MS = 5_000;
/** An action's `timeoutMs` is taken up to this (OpenClaw clamps it the same). */
const MAX_WAIT_MS = 120_000;
/** `type` with `slowly` presses one key this often. */
export const SLOW_KEY_MS = 75;

/** The page's title, or "" when the page does not answer in time (a script holds it). */
export function titleOf(page: Page): Promise<string> {
  return withTimeout(page.title(), TITLE_WAIT_MS, { onTimeout: () => "" }).catch(() => "");
}

/**
 * The longest an act may take before the page counts as not answering: the waits it asked for
 * (each element wait up to `timeoutMs`, else the action timeout), plus slack. Playwright bounds
 * its element waits, but not a script (`evaluate`, `count`), a key press or a viewport change:
 * a page whose script never yields holds those for ever.
 */
export function actDeadlineMs(req: ActRequest, actionTimeoutMs: number): number {
  const each =
    req.timeoutMs === undefined ? actionTimeoutMs : Math.min(Math.max(0, req.timeoutMs), MAX_WAIT_MS);
  let waits = each;
  if (req.kind === "wait") waits = Math.min(Math.max(0, req.timeMs ?? 0), 30_000) + 6 * each;
  else if (req.kind === "fill") waits = Math.max(1, req.fields?.length ?? 0) * each;
  else if (req.kind === "type") waits = 3 * each + (req.slowly ? (req.text?.length ?? 0) * SLOW_KEY_MS : 0);
  else if (req.kind === "press") waits = each + (req.delayMs ?? 0);
  return actionTimeoutMs + waits + SLACK_MS;
}

/**
 * `work` on a tab, failing with `pageNotAnswering` when the page has not answered it in `ms`. With
 * `ownTimeoutMs` (a read whose Playwright timeout is that), Playwright's own TimeoutError answers
 * the same way: a page that does not give its snapshot or capture in time is a page not answering.
 */
export function pageAnswer<T>(
  work: Promise<T>,
  ms: number,
  what: string,
  targetId: string,
  ownTimeoutMs?: number,
): Promise<T> {
  const read =
    ownTimeoutMs === undefined
      ? work
      : work.catch((error: unknown) => {
          throw isPlaywrightTimeout(error) ? pageNotAnswering(what, ownTimeoutMs, targetId) : error;
        });
  return withTimeout(read, ms, {
    onTimeout: () => {
      throw pageNotAnswering(what, ms, targetId);
    },
  });
}

/** What a call answers when its page did not answer in time (`what`: "the evaluate", "going back"). */
export function pageNotAnswering(what: string, ms: number, targetId: string): ToolInputError {
  return new ToolInputError(
    `The page did not answer ${what} within ${Math.round(ms / 1000)} s: a script in it may be busy (a page script that never yields holds every call to its tab). Close the tab (action=close targetId=${targetId}) and open the page again.`,
  );
}
