import type { Page } from "playwright-core";

interface AxNode {
  nodeId: string;
  parentId?: string;
  ignored?: boolean;
  role?: { value?: string };
  name?: { value?: string };
  value?: { value?: unknown };
  description?: { value?: string };
}

/** OpenClaw's `aria` format: the accessibility tree from CDP as a flat node list (limit 500, at most 2,000). */
export async function takeAriaNodes(page: Page, limit: number) {
  const session = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await session.send("Accessibility.getFullAXTree")) as { nodes: AxNode[] };
    const depthOf = new Map<string, number>();
    const out: Array<Record<string, unknown>> = [];
    for (const node of nodes) {
      const depth = node.parentId !== undefined ? (depthOf.get(node.parentId) ?? -1) + 1 : 0;
      depthOf.set(node.nodeId, depth);
      if (node.ignored) continue;
      const role = node.role?.value ?? "";
      if (role === "none" || role === "InlineTextBox") continue;
      if (out.length >= limit) break;
      out.push({
        ref: `ax${node.nodeId}`,
        role,
        name: node.name?.value ?? "",
        ...(node.value?.value !== undefined && node.value.value !== "" ? { value: node.value.value } : {}),
        ...(node.description?.value ? { description: node.description.value } : {}),
        depth,
      });
    }
    return out;
  } finally {
    await session.detach().catch(() => {});
  }
}
