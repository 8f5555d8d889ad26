/** Tool names as Claude Code spells them; Anthropic OAuth tokens expect these casings. */
export const CLAUDE_CODE_TOOL_NAMES: readonly string[] = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Grep",
  "Glob",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
  "KillShell",
  "NotebookEdit",
  "Skill",
  "Task",
  "TaskOutput",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
];

const byLowerCase = new Map(CLAUDE_CODE_TOOL_NAMES.map((name) => [name.toLowerCase(), name]));

/** Anthropic OAuth (Claude subscription) tokens, as opposed to API keys. */
export function isAnthropicOAuthKey(apiKey: string | undefined): boolean {
  return Boolean(apiKey?.includes("sk-ant-oat"));
}

/** `read` → `Read`, `webfetch` → `WebFetch`; other names pass unchanged. */
export function toClaudeCodeToolName(name: string): string {
  return byLowerCase.get(name.toLowerCase()) ?? name;
}

/** The registered name a model's tool call refers to (`Read` → `read`), else the name as given. */
export function fromClaudeCodeToolName(name: string, registered: Iterable<string>): string {
  const wanted = name.toLowerCase();
  for (const candidate of registered) if (candidate === name) return candidate;
  for (const candidate of registered) if (candidate.toLowerCase() === wanted) return candidate;
  return name;
}
