import { agentRunnerConformance } from "../../src/index.js";
import { FakeRunner } from "./fake-runner.js";

// a runner that does every step, declaring two it does: those two must fail
agentRunnerConformance({
  name: "stale runner lacks",
  lacks: { steer: "said to lack it", concurrent: "said to lack it" },
  setup: async ({ model, tools }) => ({ runner: new FakeRunner(model, tools) }),
});

// a runner whose steer never answers, declaring it: the step's short time is its expected failure
agentRunnerConformance({
  name: "true runner lacks",
  lacks: { steer: "its steer never answers" },
  lackedStepMs: 300,
  setup: async ({ model, tools }) => ({ runner: new FakeRunner(model, tools, { hangingSteer: true }) }),
});
