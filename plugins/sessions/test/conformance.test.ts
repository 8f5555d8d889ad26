import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runRegistryConformance, sessionStoreConformance } from "@clawtools/testing";
import { FileRunRegistry, FileSessionStore } from "../src/index.js";

const fresh = () => mkdtempSync(path.join(tmpdir(), "sessions-conformance-"));

sessionStoreConformance(() => new FileSessionStore(fresh()), { name: "FileSessionStore conformance" });
runRegistryConformance(() => new FileRunRegistry(fresh()), { name: "FileRunRegistry conformance" });
