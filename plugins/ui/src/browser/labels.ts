/// <reference lib="dom" />
// page functions handed to Playwright run in the browser, so this file sees the DOM types
import type { Page } from "playwright-core";

type Box = { x: number; y: number; width: number; height: number };

/**
 * A screenshot with each ref's label drawn over its element: an overlay is added to the page,
 * shot, and removed. Refs whose box lies outside the viewport are counted as skipped.
 */
export async function labelledScreenshot(
  page: Page,
  boxes: Map<string, Box>,
  type: "png" | "jpeg",
): Promise<{ buffer: Buffer; count: number; skipped: number }> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  const visible = [...boxes].filter(
    ([, b]) =>
      b.width > 0 &&
      b.height > 0 &&
      b.x < viewport.width &&
      b.y < viewport.height &&
      b.x + b.width > 0 &&
      b.y + b.height > 0,
  );
  const id = `__clawtools_labels_${Date.now()}`;
  await page.evaluate(
    ({ id, labels }) => {
      const layer = document.createElement("div");
      layer.id = id;
      layer.setAttribute("style", "position:fixed;inset:0;pointer-events:none;z-index:2147483647");
      for (const [ref, b] of labels) {
        const frame = document.createElement("div");
        frame.setAttribute(
          "style",
          `position:fixed;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px;outline:2px solid #e11;`,
        );
        const tag = document.createElement("span");
        tag.textContent = ref;
        tag.setAttribute(
          "style",
          "position:absolute;left:0;top:-14px;font:bold 11px/13px monospace;background:#e11;color:#fff;padding:0 2px",
        );
        frame.appendChild(tag);
        layer.appendChild(frame);
      }
      document.documentElement.appendChild(layer);
    },
    { id, labels: visible },
  );
  try {
    const buffer = await page.screenshot({ type });
    return { buffer, count: visible.length, skipped: boxes.size - visible.length };
  } finally {
    await page.evaluate((id) => document.getElementById(id)?.remove(), id).catch(() => {});
  }
}
