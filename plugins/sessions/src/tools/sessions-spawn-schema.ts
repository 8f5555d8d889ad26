import { optionalStringEnum, Type } from "@clawtools/core";
import { ATTACHMENTS_MAX_ITEMS } from "../attachments.js";
import { MAX_TIMEOUT_SECONDS } from "./limits.js";

/* What `sessions_spawn` takes and the words it gives the child and the caller. */

export const sessionsSpawnSchema = Type.Object(
  {
    task: Type.String({ description: "What the sub-agent should do." }),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    runtime: optionalStringEnum(["subagent", "acp"] as const),
    agentId: Type.Optional(Type.String()),
    model: Type.Optional(Type.String({ description: "provider/model for the sub-agent." })),
    thinking: Type.Optional(Type.String()),
    cwd: Type.Optional(Type.String({ description: "A directory inside the workspace." })),
    runTimeoutSeconds: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_TIMEOUT_SECONDS })),
    timeoutSeconds: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_TIMEOUT_SECONDS,
        description: "Legacy alias of runTimeoutSeconds.",
      }),
    ),
    thread: Type.Optional(Type.Boolean()),
    mode: optionalStringEnum(["run", "session"] as const),
    cleanup: optionalStringEnum(["delete", "keep"] as const),
    sandbox: optionalStringEnum(["inherit", "require"] as const),
    lightContext: Type.Optional(Type.Boolean()),
    resumeSessionId: Type.Optional(
      Type.String({ description: "Resume an earlier ACP session (runtime=acp only)." }),
    ),
    streamTo: optionalStringEnum(["parent"] as const),
    attachments: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ description: "A file name (no path)." }),
          content: Type.String(),
          encoding: optionalStringEnum(["utf8", "base64"] as const),
          mimeType: Type.Optional(Type.String()),
        }),
        {
          maxItems: ATTACHMENTS_MAX_ITEMS,
          description: "Files written into the child's workspace before it starts (when enabled).",
        },
      ),
    ),
    attachAs: Type.Optional(
      Type.Object({
        mountPath: Type.Optional(Type.String({ description: "Where the child should look (a hint)." })),
      }),
    ),
  },
  { additionalProperties: true },
);

/** Channel-delivery fields a model sometimes sends to spawn; OpenClaw refuses them by name. */
export const CHANNEL_FIELDS = [
  "target",
  "transport",
  "channel",
  "to",
  "threadId",
  "thread_id",
  "replyTo",
  "reply_to",
];

export const SPAWN_NOTE =
  "Auto-announce is push-based. After spawning children, do NOT call sessions_list, sessions_history, exec sleep, or any polling tool. Wait for the completion event to arrive in this session, then answer.";

/** The note for a caller no push reaches (an MCP host): the tool and arguments that get the answer. */
export const SPAWN_NOTE_PULL =
  'The sub-agent runs in the background, and nothing is pushed to this client when it finishes. To get its answer, call sessions_yield with {} : it waits until a sub-agent of this session finishes and returns its answer (the "reply" field). Call it once per sub-agent you spawned; if it answers status "running", call it again.';

export function subagentMessage(task: string, depth: number, maxDepth: number): string {
  return `[Subagent Context] You are running as a subagent (depth ${depth}/${maxDepth}). Results auto-announce to your requester; do not busy-poll for status.\n\n[Subagent Task]: ${task}`;
}
