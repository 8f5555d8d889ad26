import path from "node:path";
import { memoryBackendConformance } from "@clawtools/testing";
import { SqliteMemoryBackend } from "../src/index.js";
import { tempDir } from "./helpers.js";

// the default backend against the seam's shared suite, with its index file kept across reopen
memoryBackendConformance(
  ({ dir, embedder }) => new SqliteMemoryBackend({ dbPath: path.join(dir, "index.sqlite"), embedder }),
  {
    name: "SqliteMemoryBackend conformance",
    persistent: true,
    tempDir: () => tempDir("clawtools-mem-conf-"),
  },
);
