// Regenerates clawtools.schema.json (the bundle configuration's JSON Schema, named by "$schema"
// in a clawtools.json) from the live sections: pnpm --filter clawtools config-schema. A test
// fails while it is stale.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { publishedConfigSchema } from "../src/compose/schema-file.js";

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../clawtools.schema.json");
writeFileSync(file, `${JSON.stringify(await publishedConfigSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${file}\n`);
process.exit(0);
