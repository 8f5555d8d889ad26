import { describe, expect, it } from "vitest";
import { actError } from "./act-errors.js";

// Playwright's message for a click whose element never became clickable (1.65, as a model got it)
const TIMEOUT =
  "locator.click: Timeout 3000ms exceeded.\nCall log:\n\u001b[2m  - waiting for locator('aria-ref=e3')\u001b[22m\n\u001b[2m    - locator resolved to <a href=\"/hold\">slow link</a>\u001b[22m\n\u001b[2m  - attempting click action\u001b[22m\n";

describe("actError", () => {
  it("answers OpenClaw's line for a timed-out action on an element", () => {
    expect((actError(new Error(TIMEOUT), "e3") as Error).message).toBe(
      'Element "e3" not found or not visible. Run a new snapshot to see current page elements.',
    );
  });

  it("answers OpenClaw's line for an element hidden or covered, outside a timeout", () => {
    const error = new Error("locator.click: <div></div> intercepts pointer events");
    expect((actError(error, "e9") as Error).message).toBe(
      'Element "e9" is not interactable (hidden or covered). Try scrolling it into view, closing overlays, or re-snapshotting.',
    );
  });

  it("keeps any other failure's first lines, without the call log and colour codes", () => {
    const error = new Error(`${TIMEOUT.replace("locator.click", "page.waitForFunction")}`);
    error.name = "TimeoutError";
    const cleaned = actError(error, undefined) as Error;
    expect(cleaned.message).toBe("page.waitForFunction: Timeout 3000ms exceeded.");
    expect(cleaned.name).toBe("TimeoutError");
    const plain = new Error("Execution context was destroyed");
    expect(actError(plain, "e1")).toBe(plain);
  });
});
