import { type AgentToolResult, wrapExternalContent } from "@clawtools/core";
import type { ActRequest } from "../driver/act-request.js";
import { EFFICIENT_MAX_CHARS } from "../driver/limits.js";
import type { ActionResult, BrowserSession, DialogReport, PageLoad } from "../driver/types.js";

/**
 * The calls that change or read a page through an action (open, navigate, back, forward, act,
 * dialog), turned from the driver's plain values into tool results. Everything the page
 * controls (titles, evaluate results, dialog texts, snapshots) is in the wrapped text; details
 * carry only what this section decided.
 */

export const DIALOG_WAITING =
  "The page waits for an answer to this dialog: call action=dialog with accept=true or accept=false (promptText answers a prompt).";

const external = (kind: string) => ({ untrusted: true, source: "browser", kind, wrapped: true });

function pageResult(
  kind: string,
  at: { targetId: string; url: string },
  payload: Record<string, unknown>,
  details: Record<string, unknown> = {},
): AgentToolResult<unknown> {
  const text = wrapExternalContent(JSON.stringify(payload, null, 2), {
    source: "Browser",
    includeWarning: false,
  });
  return {
    content: [{ type: "text", text }],
    details: { ok: true, targetId: at.targetId, url: at.url, externalContent: external(kind), ...details },
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

/** An action a dialog stopped halfway: the model is told to answer it. */
const blocked = (kind: string, result: ActionResult<unknown>, extra: Record<string, unknown> = {}) =>
  pageResult(
    kind,
    result,
    { ok: true, ...extra, targetId: result.targetId, ...dialogPayload(result.dialogs) },
    { ...(extra.kind ? { kind: extra.kind } : {}), ...dialogFacts(result.dialogs), blockedByDialog: true },
  );

/** `open`: the new tab's id, URL and title. */
export async function openResult(
  session: BrowserSession,
  result: ActionResult<PageLoad>,
): Promise<AgentToolResult<unknown>> {
  if (!result.done) return blocked("open", result);
  const { title, url } = await session.page(result.targetId);
  return pageResult(
    "open",
    { targetId: result.targetId, url },
    { ok: true, targetId: result.targetId, url, title, ...dialogPayload(result.dialogs) },
    dialogFacts(result.dialogs),
  );
}

/** `navigate`, `back`, `forward`: the page as the model continues from it (title, URL, interactive refs). */
export async function landedResult(
  kind: string,
  session: BrowserSession,
  result: ActionResult<PageLoad>,
): Promise<AgentToolResult<unknown>> {
  if (!result.done) return blocked(kind, result);
  // the title and the snapshot are separate reads of the page: neither waits for the other
  const [{ title, url }, snap] = await Promise.all([
    session.page(result.targetId),
    session.snapshot(result.targetId, {
      refs: "role",
      interactive: true,
      compact: true,
      maxChars: EFFICIENT_MAX_CHARS,
    }),
  ]);
  const dialogs = result.dialogs.length > 0 ? `\n\nDialogs: ${JSON.stringify(result.dialogs)}` : "";
  const body = `Page: ${title}\nURL: ${url}${dialogs}\n\nInteractive elements (action=snapshot for the whole page):\n${snap.text}`;
  return {
    content: [{ type: "text", text: wrapExternalContent(body, { source: "Browser", includeWarning: true }) }],
    details: {
      ok: true,
      targetId: result.targetId,
      url,
      format: "ai",
      interactive: true,
      truncated: snap.truncated,
      refs: snap.refCount,
      externalContent: external(kind),
      ...dialogFacts(result.dialogs),
    },
  };
}

export function actResult(
  req: ActRequest,
  result: ActionResult<Record<string, unknown>>,
): AgentToolResult<unknown> {
  const kind = req.kind ?? "act";
  if (!result.done) return blocked("act", result, { kind });
  return pageResult(
    "act",
    result,
    { ...result.value, ...dialogPayload(result.dialogs) },
    { kind, ...dialogFacts(result.dialogs) },
  );
}

/** Answers the open dialog (then reports how the interrupted action ended), or arms the next one. */
export async function dialogResult(
  session: BrowserSession,
  targetId: string | undefined,
  accept: boolean,
  promptText: string | undefined,
): Promise<AgentToolResult<unknown>> {
  const { answered, resumed, ...at } = await session.dialog(targetId, {
    accept,
    ...(promptText !== undefined ? { promptText } : {}),
  });
  if (!answered)
    return pageResult(
      "dialog",
      at,
      {
        ok: true,
        targetId: at.targetId,
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
    at,
    { ok: true, targetId: at.targetId, answered, ...after, ...dialogPayload(later) },
    { answered: answered.answer, ...dialogFacts(later) },
  );
}
