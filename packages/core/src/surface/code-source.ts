import { Script } from "node:vm";
import { ToolInputError } from "../errors.js";

/** OpenClaw 9.6's refusal of shell text sent to code mode's `exec`. */
export const CODE_MODE_SHELL_SOURCE_ERROR =
  "code-mode exec runs JavaScript, not shell commands. Call an enabled async tool global from guest JavaScript; use catalog.search(query) when the bounded quick index omits it. Do not retry the same shell command as code.";

const SHELL_COMMAND =
  /^(?:\/(?:usr\/(?:local\/)?)?bin\/)?(apt|awk|bash|brew|cargo|cat|cd|chmod|cp|curl|cut|date|df|docker|du|echo|env|export|find|git|go|grep|head|kill|kubectl|ln|ls|make|mkdir|mv|node|npm|npx|pip|pip3|pnpm|ps|pwd|python|python3|rg|rm|sed|sh|sleep|sort|sudo|tail|tar|tee|touch|tree|uname|uniq|unzip|wc|wget|which|whoami|xargs|yarn|zip|zsh)(?=$|[\s;&|<>])/;
const LEADING_COMMENTS = /^(?:(?:\/\/[^\r\n]*(?:\r?\n|$)|\/\*[\s\S]*?\*\/|#[^\r\n]*(?:\r?\n|$))[\t \r\n]*)+/;

/** Whether the text parses as the body of an async function (compiled, never run). */
function parsesAsJavaScript(code: string): boolean {
  try {
    return new Script(`(async () => {\n${code}\n})`) instanceof Script;
  } catch {
    return false;
  }
}

/** Recognisable shell commands, without guessing at JavaScript that happens to start alike. */
export function isShellLike(code: string): boolean {
  const trimmed = code.trim();
  if (trimmed.startsWith("#!")) return true;
  const body = trimmed.replace(LEADING_COMMENTS, "");
  const command = SHELL_COMMAND.exec(body);
  if (!command) return false;
  if (!body.slice(command[0].length).trim()) return true;
  return !parsesAsJavaScript(code);
}

export type CodeInput = { code: string; title?: string };

const nonBlank = (value: unknown) => (typeof value === "string" && value.trim() ? value : undefined);

/** `exec`'s arguments as OpenClaw 9.6 reads them (`command` is accepted as `code`). */
export function readCode(args: unknown): CodeInput {
  const params = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const code = nonBlank(params.code);
  const command = nonBlank(params.command);
  if (code !== undefined && command !== undefined && code !== command)
    throw new ToolInputError("code and command must match when both are provided.");
  const source = command ?? code;
  if (source === undefined) throw new ToolInputError("code or command must be a non-empty string.");
  if (params.language !== undefined || params.typecheck !== undefined)
    throw new ToolInputError(
      "Code Mode accepts JavaScript only. Remove language and typecheck; use API.read(...) for tool types.",
    );
  if (params.restartSafe !== undefined && typeof params.restartSafe !== "boolean")
    throw new ToolInputError("restartSafe must be a boolean.");
  if (params.restartSafe === true)
    throw new ToolInputError(
      "restartSafe is only for replay after a gateway restart, which this server never requests; call exec without it.",
    );
  if (isShellLike(source)) throw new ToolInputError(CODE_MODE_SHELL_SOURCE_ERROR);
  return { code: source, ...(typeof params.title === "string" ? { title: params.title } : {}) };
}

/** `wait`'s `runId` (or `run_id`). */
export function readRunId(args: unknown): string {
  const params = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const runId = params.runId ?? params.run_id;
  if (typeof runId !== "string" || !runId.trim())
    throw new ToolInputError("runId must be a non-empty string.");
  return runId.trim();
}
