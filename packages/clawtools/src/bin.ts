#!/usr/bin/env node
// `npx clawtools`: the package named clawtools runs the clawtools command (@clawtools/cli).
import "@clawtools/cli/bin";
