import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  runLivenessConformance,
  runRegistryConformance,
  runRegistryTwoInstanceConformance,
  sessionStoreConformance,
  sessionStorePagingConformance,
  sessionStoreTwoInstanceConformance,
} from "@clawtools/testing";
import { FileRunRegistry, FileSessionStore } from "../src/index.js";
import { createLivenessHost } from "../src/testing.js";

const fresh = () => mkdtempSync(path.join(tmpdir(), "sessions-conformance-"));

sessionStoreConformance(() => new FileSessionStore(fresh()), { name: "FileSessionStore conformance" });
sessionStorePagingConformance(() => new FileSessionStore(fresh()), { name: "FileSessionStore paging" });
runRegistryConformance(() => new FileRunRegistry(fresh()), { name: "FileRunRegistry conformance" });

// two instances on one state directory, as two processes open it (each its own cache and queue)
sessionStoreTwoInstanceConformance(
  () => {
    const dir = fresh();
    return [new FileSessionStore(dir), new FileSessionStore(dir)];
  },
  { name: "FileSessionStore two-instance conformance" },
);
runRegistryTwoInstanceConformance(
  () => {
    const dir = fresh();
    return [new FileRunRegistry(dir), new FileRunRegistry(dir)];
  },
  { name: "FileRunRegistry two-instance conformance" },
);
runLivenessConformance(
  (count) => {
    const dir = fresh();
    return Promise.all(
      Array.from({ length: count }, () =>
        createLivenessHost({ store: new FileSessionStore(dir), runs: new FileRunRegistry(dir) }),
      ),
    );
  },
  { name: "run liveness on the file stores" },
);
