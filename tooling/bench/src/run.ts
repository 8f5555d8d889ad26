import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BenchSuite, renderSuite } from "./harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const suitesDir = join(here, "suites");
const resultsDir = join(here, "..", "results");
const benchmarksFile = join(here, "..", "..", "..", "BENCHMARKS.md");

// suite names; options (`--record-before`) are read by the suites themselves
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
// `--render-only`: rebuild BENCHMARKS.md from the kept results without running a suite
const renderOnly = process.argv.includes("--render-only");
const files = readdirSync(suitesDir)
  .filter((f) => f.endsWith(".ts"))
  .sort();
const names = files.map((f) => f.replace(/\.ts$/, ""));
const unknown = wanted.filter((w) => !names.includes(w));
if (unknown.length > 0) {
  console.error(`unknown suite(s): ${unknown.join(", ")}; available: ${names.join(", ")}`);
  process.exit(2);
}

// A peer library's stray rejection (pi's find downloading fd, say) must not end the whole run.
process.on("unhandledRejection", (reason) => {
  console.error(
    `bench: unhandled rejection (ignored): ${reason instanceof Error ? reason.message : String(reason)}`,
  );
});

const failed: string[] = [];
for (const name of renderOnly ? [] : wanted.length > 0 ? wanted : names) {
  console.log(`\n▶ ${name}`);
  try {
    const mod = (await import(pathToFileURL(join(suitesDir, `${name}.ts`)).href)) as { default: BenchSuite };
    const result = await mod.default.run();
    const text = renderSuite(name, result, new Date().toISOString().slice(0, 10));
    console.log(text);
    writeFileSync(join(resultsDir, `${name}.md`), text);
  } catch (error) {
    // keep the previous results file for this suite; say so and go on with the next suite
    failed.push(name);
    console.error(
      `bench: suite ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}

const sections = readdirSync(resultsDir)
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => readFileSync(join(resultsDir, f), "utf8"));
writeFileSync(
  benchmarksFile,
  `# Benchmarks\n\nProduced by \`pnpm bench\` (\`tooling/bench\`); each suite measures clawtools beside a peer or the physical limit in the same run and reports ratios. Run one suite with \`pnpm bench <suite>\`. Numbers are from a 2-core machine and vary run to run; the ratios are what matter.\n\n${missedGoals(sections)}${sections.join("\n")}`,
);
/**
 * Every row whose target was not met, gathered from the suites' results, followed by the why
 * (tooling/bench/why-missed.md, kept by hand beside the results).
 */
function missedGoals(texts: string[]): string {
  const rows = texts.flatMap((text) => {
    const suite = /^Suite `([^`]+)`/m.exec(text)?.[1] ?? "?";
    return text
      .split("\n")
      .filter((line) => line.startsWith("| ") && line.endsWith("| **no** |"))
      .map((line) => {
        const [measurement, value, ratio, target] = line.slice(2, -2).split(" | ");
        return `- \`${suite}\`: ${measurement}: ${value}${ratio ? ` (${ratio})` : ""}, target ${target}`;
      });
  });
  if (rows.length === 0) return "";
  const whyFile = join(here, "..", "why-missed.md");
  const why = existsSync(whyFile) ? `\n${readFileSync(whyFile, "utf8").trim()}\n` : "";
  return `## Goals missed in these results\n\n${rows.join("\n")}\n${why}\n`;
}

if (failed.length > 0) {
  console.error(
    `bench: ${failed.length} suite(s) failed and kept their previous results: ${failed.join(", ")}`,
  );
  process.exitCode = 1;
}
