import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fsBridgeConformance } from "@clawtools/testing";
import { createMemoryBridge } from "../src/bridge/memory-bridge.js";
import { createNodeBridge } from "../src/bridge/node-bridge.js";
import { tempDir } from "./helpers.js";

// the node bridge over a fresh temp root, a sibling directory holding the file it must never touch
fsBridgeConformance(
  () => {
    const base = tempDir();
    const root = path.join(base, "workspace");
    const outside = path.join(base, "outside");
    mkdirSync(root);
    mkdirSync(outside);
    const outsideFile = path.join(outside, "secret.txt");
    writeFileSync(outsideFile, "outside secret\n");
    return {
      bridge: createNodeBridge(root),
      root,
      containment: {
        outsideFile,
        symlink: async (linkPath: string, target: string) => symlinkSync(target, path.join(root, linkPath)),
      },
    };
  },
  { name: "node bridge conformance" },
);

fsBridgeConformance(() => ({ bridge: createMemoryBridge({}, "/workspace"), root: "/workspace" }), {
  name: "memory bridge conformance",
});
