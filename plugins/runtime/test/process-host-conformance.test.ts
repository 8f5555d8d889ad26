import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { localPidAlive, processHostConformance } from "@clawtools/testing";
import { afterAll } from "vitest";
import { localProcessHost } from "../src/index.js";

const cwd = mkdtempSync(path.join(tmpdir(), "clawtools-host-conformance-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

processHostConformance(
  () => ({
    host: localProcessHost,
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    pidAlive: localPidAlive,
  }),
  { name: "localProcessHost conformance" },
);
