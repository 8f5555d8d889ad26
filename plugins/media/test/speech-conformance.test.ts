import { speechProviderConformance } from "@clawtools/testing";
import { createCliSpeechProvider, createEspeakProvider } from "../src/index.js";

// Debian's espeak-ng, directly and as a configured command line
speechProviderConformance(() => ({ provider: createEspeakProvider() }), {
  name: "espeak provider conformance",
});
speechProviderConformance(
  () => ({
    provider: createCliSpeechProvider({
      command: "espeak-ng",
      args: ["-f", "{{TEXT_FILE}}", "-w", "{{OUTPUT_FILE}}"],
      outputFormat: "wav",
    }),
  }),
  { name: "cli provider (espeak-ng) conformance" },
);
