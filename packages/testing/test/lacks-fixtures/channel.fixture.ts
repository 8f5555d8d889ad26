import { channelConformance } from "../../src/index.js";
import { fakeChannel } from "./fake-channel.js";

// a channel that reads and searches, declaring it cannot: both steps must fail
channelConformance(() => fakeChannel(), {
  name: "stale channel lacks",
  lacks: { read: "said to lack it", search: "said to lack it" },
});

// a channel whose read and search never answer, declaring it: their short time is the failure
channelConformance(() => fakeChannel({ hangingRead: true }), {
  name: "true channel lacks",
  lacks: { read: "read never answers", search: "search never answers" },
  lackedStepMs: 300,
});
