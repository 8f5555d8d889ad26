import os from "node:os";
import { nodeHostConformance } from "@clawtools/testing";
import { expect } from "vitest";
import { LocalNodeHost } from "../src/local/local-host.js";

// this machine as a node; device.info is checked against what the OS itself reports
nodeHostConformance(
  () => ({
    host: new LocalNodeHost({ env: { ...process.env, DISPLAY: "" } }),
    probe: {
      command: "device.info",
      params: {},
      check: (result) =>
        expect(result).toMatchObject({
          cpu: { cores: os.cpus().length },
          memory: { totalBytes: os.totalmem() },
        }),
    },
  }),
  { name: "LocalNodeHost conformance" },
);
