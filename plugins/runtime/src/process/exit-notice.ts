import type { BackgroundProcess } from "./host.js";

/** What OpenClaw queues as a system event when a backgrounded run ends. */
export interface BackgroundExitNotice {
  /** The scope the session belongs to (session key, else `agent:<id>`). */
  sessionKey: string;
  sessionId: string;
  status: "completed" | "failed";
  exitCode: number | null;
  exitSignal: string | null;
  /** `Exec completed (<id>, code 0) :: <last 400 chars of output>` */
  text: string;
}

export const NOTICE_TAIL_CHARS = 400;

/** The notice for a finished background session, or undefined when there is nothing to say. */
export function backgroundExitNotice(
  session: BackgroundProcess,
  options: { emptySuccess?: boolean } = {},
): BackgroundExitNotice | undefined {
  const exit = session.exit;
  if (!exit || !session.backgrounded) return undefined;
  const status = session.status === "completed" ? "completed" : "failed";
  const output = session.tail.replace(/\s+/g, " ").trim().slice(-NOTICE_TAIL_CHARS);
  if (status === "completed" && !output && !options.emptySuccess) return undefined;
  const how = exit.exitSignal ? `signal ${exit.exitSignal}` : `code ${exit.exitCode ?? 0}`;
  const head = `Exec ${status} (${session.id.slice(0, 8)}, ${how})`;
  return {
    sessionKey: session.scopeKey,
    sessionId: session.id,
    status,
    exitCode: exit.exitCode,
    exitSignal: exit.exitSignal,
    text: output ? `${head} :: ${output}` : head,
  };
}
