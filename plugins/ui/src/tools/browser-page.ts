import { type AgentToolResult, ToolInputError, wrapExternalContent } from "@clawtools/core";
import { type ActRequest, runAct } from "../browser/act.js";
import type { DialogReport, Guarded } from "../browser/dialogs.js";
import type { BrowserRuntime } from "../browser/runtime.js";
import { EFFICIENT_MAX_CHARS, takeSnapshot } from "../browser/snapshot.js";
import type { Tab } from "../browser/tab.js";

/**
 * The calls that change or read a page through an action (open, navigate, back, forward, act,
 * dialog). Everything the page controls (titles, evaluate results, dialog texts, snapshots) is
 * in the wrapped text; details carry only what this section decided.
 */

export const DIALOG_WAITING =
  "The page waits for an answer to this dialog: call action=dialog with accept=true or accept=false (promptText answers a prompt).";

const external = (kind: string) => ({ untrusted: true, source: "browser", kind, wrapped: true });

function pageResult(
  kind: string,
  tab: Tab,
  payload: Record<string, unknown>,
  details: Record<string, unknown> = {},
): AgentToolResult<unknown> {
  const text = wrapExternalContent(JSON.stringify(payload, null, 2), {
    source: "Browser",
    includeWarning: false,
  });
  return {
    content: [{ type: "text", text }],
    details: {
      ok: true,
      targetId: tab.targetId,
      url: tab.page.url(),
      externalContent: external(kind),
      ...details,
    },
  };
}

/** Dialog facts for details: no page text, only what happened. */
const dialogFacts = (dialogs: DialogReport[]) =>
  dialogs.length === 0
    ? {}
    : {
        dialogs: dialogs.map((d) => ({
          kind: d.kind,
          ...(d.answer ? { answer: d.answer } : { pending: true }),
        })),
      };

/** Payload lines for dialogs: what they said and how they were answered. */
const dialogPayload = (dialogs: DialogReport[]) =>
  dialogs.length === 0
    ? {}
    : { dialogs, ...(dialogs.some((d) => d.pending) ? { next: DIALOG_WAITING } : {}) };

/** The page as the model continues from it: title, URL and its interactive elements with refs. */
async function landed(kind: string, tab: Tab, outcome: Guarded<unknown>): Promise<AgentToolResult<unknown>> {
  if (!outcome.done)
    return pageResult(
      kind,
      tab,
      { ok: true, targetId: tab.targetId, ...dialogPayload(outcome.dialogs) },
      {
        ...dialogFacts(outcome.dialogs),
        blockedByDialog: true,
      },
    );
  const title = await tab.page.title().catch(() => "");
  const snap = await takeSnapshot(tab.page, {
    refs: "role",
    interactive: true,
    compact: true,
    maxChars: EFFICIENT_MAX_CHARS,
  });
  tab.refs = snap.refs;
  const dialogs = outcome.dialogs.length > 0 ? `\n\nDialogs: ${JSON.stringify(outcome.dialogs)}` : "";
  const body = `Page: ${title}\nURL: ${tab.page.url()}${dialogs}\n\nInteractive elements (action=snapshot for the whole page):\n${snap.text}`;
  return {
    content: [{ type: "text", text: wrapExternalContent(body, { source: "Browser", includeWarning: true }) }],
    details: {
      ok: true,
      targetId: tab.targetId,
      url: tab.page.url(),
      format: "ai",
      interactive: true,
      truncated: snap.truncated,
      refs: snap.refCount,
      externalContent: external(kind),
      ...dialogFacts(outcome.dialogs),
    },
  };
}

/** A navigation's outcome as plain data (a dialog answer later reports it as JSON). */
const loaded = (tab: Tab, navigation: Promise<unknown>) =>
  navigation.then(() => ({ ok: true, targetId: tab.targetId, url: tab.page.url() }));

export async function openPage(runtime: BrowserRuntime, url: string): Promise<AgentToolResult<unknown>> {
  const tab = await runtime.newTab();
  const outcome = await tab.dialogs.guard(() => loaded(tab, runtime.goto(tab.page, url)));
  if (!outcome.done)
    return pageResult(
      "open",
      tab,
      { ok: true, targetId: tab.targetId, ...dialogPayload(outcome.dialogs) },
      {
        ...dialogFacts(outcome.dialogs),
        blockedByDialog: true,
      },
    );
  const title = await tab.page.title().catch(() => "");
  return pageResult(
    "open",
    tab,
    { ok: true, targetId: tab.targetId, url: tab.page.url(), title, ...dialogPayload(outcome.dialogs) },
    dialogFacts(outcome.dialogs),
  );
}

export async function navigatePage(
  runtime: BrowserRuntime,
  tab: Tab,
  url: string,
): Promise<AgentToolResult<unknown>> {
  return landed("navigate", tab, await tab.dialogs.guard(() => loaded(tab, runtime.goto(tab.page, url))));
}

/** History steps: `back` / `forward`; at either end of the history it says so instead of pretending. */
export async function stepHistory(
  tab: Tab,
  direction: "back" | "forward",
): Promise<AgentToolResult<unknown>> {
  tab.dialogs.assertFree();
  const session = await tab.page.context().newCDPSession(tab.page);
  let history: { currentIndex: number; entries: unknown[] };
  try {
    history = (await session.send("Page.getNavigationHistory")) as typeof history;
  } finally {
    await session.detach().catch(() => {});
  }
  const possible =
    direction === "back" ? history.currentIndex > 0 : history.currentIndex < history.entries.length - 1;
  if (!possible)
    throw new ToolInputError(
      `Cannot go ${direction}: no ${direction === "back" ? "earlier" : "later"} page in this tab's history.`,
    );
  const outcome = await tab.dialogs.guard(() =>
    loaded(
      tab,
      direction === "back"
        ? tab.page.goBack({ waitUntil: "domcontentloaded" })
        : tab.page.goForward({ waitUntil: "domcontentloaded" }),
    ),
  );
  return landed(direction, tab, outcome);
}

export async function actOnPage(
  tab: Tab,
  req: ActRequest,
  options: { evaluateEnabled: boolean },
): Promise<AgentToolResult<unknown>> {
  const outcome = await tab.dialogs.guard(() => runAct(tab, req, options));
  await tab.cleanup(); // act kind close: its staged uploads go with it
  const kind = req.kind ?? "act";
  if (!outcome.done)
    return pageResult(
      "act",
      tab,
      { ok: true, kind, targetId: tab.targetId, ...dialogPayload(outcome.dialogs) },
      {
        kind,
        ...dialogFacts(outcome.dialogs),
        blockedByDialog: true,
      },
    );
  return pageResult(
    "act",
    tab,
    { ...outcome.value, ...dialogPayload(outcome.dialogs) },
    {
      kind,
      ...dialogFacts(outcome.dialogs),
    },
  );
}

/** Answers the open dialog (then reports how the interrupted action ended), or arms the next one. */
export async function answerDialog(
  tab: Tab,
  accept: boolean,
  promptText: string | undefined,
): Promise<AgentToolResult<unknown>> {
  const { answered, resumed } = await tab.dialogs.answer(accept, promptText);
  if (!answered)
    return pageResult(
      "dialog",
      tab,
      {
        ok: true,
        targetId: tab.targetId,
        armed: { accept, ...(promptText !== undefined ? { promptText } : {}) },
      },
      { armed: true },
    );
  const later = resumed?.dialogs ?? [];
  const after = !resumed
    ? {}
    : resumed.done
      ? {
          action: resumed.value.error
            ? { error: resumed.value.error }
            : { completed: true, result: resumed.value.value },
        }
      : { action: { waiting: true } };
  return pageResult(
    "dialog",
    tab,
    { ok: true, targetId: tab.targetId, answered, ...after, ...dialogPayload(later) },
    { answered: answered.answer, ...dialogFacts(later) },
  );
}
