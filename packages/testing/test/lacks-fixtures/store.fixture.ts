import { sessionStoreConformance } from "../../src/index.js";
import { FakeStore } from "./fake-store.js";

// a store that does everything, declaring every lack: each of those steps must fail
sessionStoreConformance(() => new FakeStore(), {
  name: "stale store lacks",
  lacks: {
    userMessages: "said to lack it",
    idempotentAppend: "said to lack it",
    spawnedBy: "said to lack it",
    otherAgents: "said to lack it",
    verbatimContent: "said to lack it",
  },
});

// a store that appends twice under one idempotency key, declaring it
sessionStoreConformance(() => new FakeStore({ ignoresIdempotency: true }), {
  name: "true store lacks",
  lacks: { idempotentAppend: "it appends again under a key it has seen" },
});
