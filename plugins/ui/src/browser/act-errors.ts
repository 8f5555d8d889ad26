/** Playwright's call log and its terminal colour codes: for a person at a terminal, not a model. */
const CALL_LOG = /\n+Call log:[\s\S]*$/;
const COLOUR = /\u001b\[[0-9;]*m/g;

/**
 * An action's Playwright failure as OpenClaw's browser tool words it (`toAIFriendlyError` in its
 * pw-tools-core): several matches, an element not found or not visible in time, an element
 * hidden or covered, each with what to do next. `target` is the ref or selector the call named.
 * Anything else keeps Playwright's first lines, without the call log and colour codes.
 */
export function actError(error: unknown, target: string | undefined): unknown {
  if (!(error instanceof Error)) return error;
  const message = error.message;
  if (target !== undefined) {
    if (message.includes("strict mode violation")) {
      const count = /resolved to (\d+) elements/.exec(message)?.[1] ?? "multiple";
      return new Error(
        `Selector "${target}" matched ${count} elements. Run a new snapshot to get updated refs, or use a different ref.`,
      );
    }
    if (
      (message.includes("Timeout") || message.includes("waiting for")) &&
      (message.includes("to be visible") ||
        message.includes("not visible") ||
        message.includes("waiting for locator("))
    )
      return new Error(
        `Element "${target}" not found or not visible. Run a new snapshot to see current page elements.`,
      );
    if (
      message.includes("intercepts pointer events") ||
      message.includes("not visible") ||
      message.includes("not receive pointer events")
    )
      return new Error(
        `Element "${target}" is not interactable (hidden or covered). Try scrolling it into view, closing overlays, or re-snapshotting.`,
      );
  }
  const plain = message.replace(CALL_LOG, "").replace(COLOUR, "");
  if (plain === message) return error;
  const cleaned = new Error(plain);
  cleaned.name = error.name;
  return cleaned;
}
