/// <reference lib="dom" />
// page functions handed to Playwright run in the browser, so this file sees the DOM types
import { ToolInputError } from "@clawtools/core";
import { delay } from "@clawtools/core/time";
import type { Locator, Page } from "playwright-core";
import { type ActRequest, EVALUATE_DISABLED, staleRef, validateAct } from "../driver/act-request.js";
import type { Tab } from "./tab.js";
import { SLOW_KEY_MS } from "./page-answer.js";

/** The locator of a ref of the tab's latest snapshot, unchecked; undefined when the ref is not one of them. */
function refLocator(tab: Tab, ref: string): Locator | undefined {
  const page = tab.page;
  const refs = tab.refs;
  const scope = refs?.frame ? page.frameLocator(refs.frame) : page;
  if (refs?.mode === "aria") return refs.refs.has(ref) ? page.getByRef(ref) : undefined;
  if (refs?.mode !== "role") return undefined;
  const entry = refs.refs.get(ref);
  if (!entry) return undefined;
  // the exact element the snapshot saw; by role, name and position when it has no AI ref
  if (entry.ariaRef) return scope.locator(`aria-ref=${entry.ariaRef}`);
  return scope
    .getByRole(entry.role as Parameters<Page["getByRole"]>[0], {
      ...(entry.name !== undefined ? { name: entry.name, exact: true } : {}),
    })
    .nth(entry.nth);
}

/**
 * The element a ref or selector names. A ref must come from the tab's latest snapshot and still
 * match an element right now: anything else fails at once with advice to re-snapshot, instead
 * of waiting out an action timeout.
 */
export async function locate(
  tab: Tab,
  ref: string | undefined,
  selector: string | undefined,
): Promise<Locator> {
  if (ref) {
    const locator = refLocator(tab, ref);
    if (!locator || (await locator.count()) === 0) throw new ToolInputError(staleRef(ref));
    return locator;
  }
  if (!selector) throw new ToolInputError("ref or selector required");
  return tab.page.locator(selector);
}

/**
 * `act` on a ref with the ref's check in flight beside the action instead of before it (one
 * round trip to the page less). The check is sent first, so it sees the page before the action
 * touches it: no match aborts the action, which is then still waiting for its element, and
 * answers as a stale ref, exactly as `locate` does. An action that finished regardless found
 * its element, and stands.
 */
export async function onRef(
  tab: Tab,
  ref: string,
  action: (locator: Locator, signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  const locator = refLocator(tab, ref);
  if (!locator) throw new ToolInputError(staleRef(ref));
  const abort = new AbortController();
  const checking = locator.count();
  const acting = action(locator, abort.signal).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  let found: number;
  try {
    found = await checking;
  } catch (error) {
    abort.abort();
    await acting;
    throw error;
  }
  if (found === 0) {
    abort.abort();
    if (await acting) throw new ToolInputError(staleRef(ref));
    return;
  }
  const failed = await acting;
  if (failed) throw failed.error;
}

const pause = (ms: number) => delay(ms);

/** Runs one act on a tab; the result is what OpenClaw answers as JSON. */
export async function runAct(
  tab: Tab,
  req: ActRequest,
  options: { evaluateEnabled: boolean },
): Promise<Record<string, unknown>> {
  const kind = validateAct(req);
  const page = tab.page;
  const timeout = req.timeoutMs !== undefined ? { timeout: req.timeoutMs } : {};
  const base = { ok: true, kind, targetId: tab.targetId };
  switch (kind) {
    case "click": {
      const opts = {
        ...timeout,
        ...(req.button ? { button: req.button as "left" | "right" | "middle" } : {}),
        ...(req.modifiers?.length
          ? { modifiers: req.modifiers as Array<"Alt" | "Control" | "Meta" | "Shift"> }
          : {}),
      };
      const click = (el: Locator, signal?: AbortSignal) => {
        const how = signal ? { ...opts, signal } : opts;
        return req.doubleClick ? el.dblclick(how) : el.click(how);
      };
      if (req.ref) await onRef(tab, req.ref, click);
      else await click(await locate(tab, undefined, req.selector));
      break;
    }
    case "type": {
      const el = await locate(tab, req.ref, req.selector);
      if (req.slowly) {
        await el.click(timeout);
        await el.pressSequentially(req.text!, { delay: SLOW_KEY_MS, ...timeout });
      } else await el.fill(req.text!, timeout);
      if (req.submit) await el.press("Enter", timeout);
      break;
    }
    case "press":
      await page.keyboard.press(req.key!, req.delayMs !== undefined ? { delay: req.delayMs } : {});
      break;
    case "hover":
      await (await locate(tab, req.ref, req.selector)).hover(timeout);
      break;
    case "drag": {
      const from = await locate(tab, req.startRef, req.startSelector);
      const to = await locate(tab, req.endRef, req.endSelector);
      await from.dragTo(to, timeout);
      break;
    }
    case "select": {
      const selected = await (await locate(tab, req.ref, req.selector)).selectOption(req.values!, timeout);
      return { ...base, selected };
    }
    case "fill":
      for (const field of req.fields!) {
        const el = await locate(tab, field.ref, field.selector);
        const type = field.type?.toLowerCase();
        if (type === "checkbox" || type === "radio" || typeof field.value === "boolean")
          await el.setChecked(field.value === true || field.value === "true", timeout);
        else await el.fill(field.value === undefined ? "" : String(field.value), timeout);
      }
      break;
    case "resize":
      await page.setViewportSize({ width: Math.round(req.width!), height: Math.round(req.height!) });
      break;
    case "wait":
      if (req.timeMs !== undefined) await pause(Math.min(Math.max(0, req.timeMs), 30_000));
      if (req.selector)
        await page
          .locator(req.selector)
          .first()
          .waitFor({ state: "visible", ...timeout });
      if (req.text)
        await page
          .getByText(req.text)
          .first()
          .waitFor({ state: "visible", ...timeout });
      if (req.textGone)
        await page
          .getByText(req.textGone)
          .first()
          .waitFor({ state: "hidden", ...timeout });
      if (req.url) await page.waitForURL(req.url, timeout);
      if (req.loadState)
        await page.waitForLoadState(req.loadState as "load" | "domcontentloaded" | "networkidle", timeout);
      if (req.fn) {
        if (!options.evaluateEnabled) throw new ToolInputError(EVALUATE_DISABLED);
        await page.waitForFunction(callExpression(req.fn), undefined, timeout);
      }
      break;
    case "evaluate": {
      if (!options.evaluateEnabled) throw new ToolInputError(EVALUATE_DISABLED);
      const result =
        req.ref || req.selector
          ? await evaluateOn(page, await locate(tab, req.ref, req.selector), req.fn!)
          : await page.evaluate(callExpression(req.fn!));
      return { ...base, url: page.url(), result: result === undefined ? null : result };
    }
    case "close":
      await page.close();
      return base;
  }
  return { ...base, url: page.url() };
}

const FUNCTION_SOURCE = /^(async\s+)?(function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/;

/**
 * `fn` is a function's source (`() => document.title`) or a bare expression. It is only ever
 * evaluated in the page (Playwright sends strings over CDP, so page CSP does not interfere),
 * never in this process.
 */
function callExpression(source: string, arg = ""): string {
  const trimmed = source.trim();
  return FUNCTION_SOURCE.test(trimmed) ? `(${trimmed})(${arg})` : `(${trimmed})`;
}

/**
 * Runs `fn` with the element as its argument: the element is parked on its own frame's window
 * for the call (an element inside an iframe lives in that frame's window, not the page's).
 */
async function evaluateOn(page: Page, element: Locator, source: string): Promise<unknown> {
  const slot = `__clawtools_el_${Math.random().toString(36).slice(2)}`;
  const handle = await element.elementHandle();
  if (!handle) throw new ToolInputError("the element is gone; take a new snapshot");
  const frame = (await handle.ownerFrame()) ?? page.mainFrame();
  await handle.evaluate((el, name) => {
    (window as unknown as Record<string, unknown>)[name] = el;
  }, slot);
  try {
    return await frame.evaluate(callExpression(source, `window[${JSON.stringify(slot)}]`));
  } finally {
    await frame.evaluate(`delete window[${JSON.stringify(slot)}]`).catch(() => {});
    await handle.dispose().catch(() => {});
  }
}
