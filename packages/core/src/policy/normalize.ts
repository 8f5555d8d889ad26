/** The only two aliases OpenClaw knows. */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  bash: "exec",
  "apply-patch": "apply_patch",
});

/** Lowercases, trims and maps aliases (`bash` → `exec`, `apply-patch` → `apply_patch`). */
export function normalizeToolName(name: string): string {
  // every policy step and registry lookup normalises the same few hundred names again and again
  if (typeof name === "string") {
    const known = normalized.get(name);
    if (known !== undefined) return known;
  }
  const key = String(name ?? "")
    .trim()
    .toLowerCase();
  const result = Object.hasOwn(TOOL_NAME_ALIASES, key) ? TOOL_NAME_ALIASES[key]! : key;
  if (typeof name === "string" && name.length <= 128) {
    if (normalized.size >= MAX_REMEMBERED) normalized.clear();
    normalized.set(name, result);
  }
  return result;
}

const MAX_REMEMBERED = 4096;
const normalized = new Map<string, string>();

export function normalizeToolList(list: readonly string[] | undefined): string[] {
  return (list ?? []).map(normalizeToolName).filter(Boolean);
}
