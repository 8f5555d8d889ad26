/** The only two aliases OpenClaw knows. */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  bash: "exec",
  "apply-patch": "apply_patch",
});

/** Lowercases, trims and maps aliases (`bash` → `exec`, `apply-patch` → `apply_patch`). */
export function normalizeToolName(name: string): string {
  const key = String(name ?? "")
    .trim()
    .toLowerCase();
  return TOOL_NAME_ALIASES[key] ?? key;
}

export function normalizeToolList(list: readonly string[] | undefined): string[] {
  return (list ?? []).map(normalizeToolName).filter(Boolean);
}
