export interface CanvasPlacement {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

export interface CanvasSnapshot {
  format: "png" | "jpeg";
  base64: string;
}

/**
 * Where a canvas is shown. The embedded host is a page in this toolset's Chromium; a Gateway-backed
 * host would `node.invoke canvas.*` on a paired node. Messages are already parsed A2UI lines.
 */
export interface CanvasHost {
  present(options: { url?: string; placement?: CanvasPlacement }): Promise<void>;
  hide(): Promise<void>;
  navigate(url: string): Promise<void>;
  eval(javaScript: string): Promise<unknown>;
  snapshot(options: {
    format: "png" | "jpeg";
    maxWidth?: number;
    quality?: number;
    delayMs?: number;
  }): Promise<CanvasSnapshot>;
  a2uiPush(messages: Array<Record<string, unknown>>): Promise<void>;
  a2uiReset(): Promise<void>;
}
