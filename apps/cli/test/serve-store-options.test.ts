import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { redactSecrets } from "@clawtools/core/safety";
import { describe, expect, it } from "vitest";
import {
  bundleConfigSchema,
  type Clawtools,
  checkStoreUrl,
  describeState,
  readBundleConfig,
  redactStoreUrl,
} from "clawtools/compose";
import { readConfigFile } from "../src/config.js";
import { parseCommonOptions } from "../src/options.js";
import { loadClawtools } from "../src/toolset.js";
import { isConfigProblem } from "../src/usage.js";

/** The file as the CLI reads it and the bundle checks it. */
const loadConfig = (file: string, clawtools: Clawtools) => {
  const read = readConfigFile(file);
  return readBundleConfig(read.raw, clawtools.tools.plugins(), { where: read.where, baseDir: read.dir });
};

const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (isConfigProblem(error)) return error.message;
    throw error;
  }
  throw new Error("expected a usage error");
};

describe("--store and the config file's store", () => {
  it("takes postgres:// and postgresql:// URLs, as given", () => {
    expect(parseCommonOptions(["--store", "postgres://app@db.internal:5432/clawtools"], "serve").store).toBe(
      "postgres://app@db.internal:5432/clawtools",
    );
    expect(checkStoreUrl("postgresql://app@db/clawtools?sslmode=require", "--store")).toBe(
      "postgresql://app@db/clawtools?sslmode=require",
    );
    expect(parseCommonOptions([], "serve").store).toBeUndefined();
  });

  it("refuses anything else with a usage error that names the flag and never shows the password", () => {
    expect(usage(() => parseCommonOptions(["--store", "mysql://app:pw1@db/x"], "serve"))).toBe(
      '--store takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB (postgres:// or postgresql://), got "mysql://app@db/x"',
    );
    expect(usage(() => parseCommonOptions(["--store", "db.internal:5432"], "serve"))).toContain(
      "(postgres:// or postgresql://)",
    );
    expect(usage(() => parseCommonOptions(["--store", "not a url"], "serve"))).toBe(
      '--store takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB, got "not a url" (not a URL)',
    );
    expect(usage(() => parseCommonOptions(["--store", "postgres:///clawtools"], "serve"))).toContain(
      "(no host)",
    );
    expect(usage(() => parseCommonOptions(["--store", ""], "serve"))).toBe(
      '--store takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB, got ""',
    );
    // only serve takes the flag; list, describe and schema touch no state
    expect(usage(() => parseCommonOptions(["--store", "postgres://a@b/c"], "list"))).toContain("--store");
  });

  it("a password in the URL becomes a secret of the process: log lines and results redact it", () => {
    checkStoreUrl("postgres://app:Tr0ub4dor%263@db/x", "--store");
    expect(redactSecrets("connected with Tr0ub4dor&3")).not.toContain("Tr0ub4dor&3");
    expect(redactStoreUrl("postgres://app:Tr0ub4dor%263@db/x")).toBe("postgres://app@db/x");
    expect(redactStoreUrl("%%://app:pw@db")).toBe("%%://…@db");
    // pg also reads a password from the query string
    checkStoreUrl("postgres://app@db/x?sslmode=disable&password=Qu3ryPassw0rd", "--store");
    expect(redactSecrets("auth Qu3ryPassw0rd")).not.toContain("Qu3ryPassw0rd");
    expect(redactStoreUrl("postgres://app@db/x?sslmode=disable&password=Qu3ryPassw0rd")).toBe(
      "postgres://app@db/x?sslmode=disable",
    );
  });

  it("the config file's store is checked like the flag, and the configuration schema describes it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cli-store-config-"));
    const clawtools = await loadClawtools();
    try {
      const good = path.join(dir, "good.json");
      writeFileSync(good, JSON.stringify({ store: "postgres://app@db/clawtools" }));
      expect(loadConfig(good, clawtools).store).toBe("postgres://app@db/clawtools");
      const bad = path.join(dir, "bad.json");
      writeFileSync(bad, JSON.stringify({ store: "redis://db:6379" }));
      expect(usage(() => loadConfig(bad, clawtools))).toBe(
        `--config ${bad}: store takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB (postgres:// or postgresql://), got "redis://db:6379"`,
      );
      const schema = bundleConfigSchema(clawtools.tools.plugins()) as {
        properties: Record<string, { pattern?: string }>;
      };
      expect(schema.properties.store?.pattern).toBe("^postgres(ql)?://");
    } finally {
      await clawtools.tools.dispose();
    }
  });

  it("--store-connections and --agent-id: taken when sound, refused by name otherwise; the config file's keys checked by the schema", async () => {
    const parsed = parseCommonOptions(["--store-connections", "2", "--agent-id", "ci-runner"], "serve");
    expect(parsed).toMatchObject({ storeConnections: 2, agentId: "ci-runner" });
    expect(usage(() => parseCommonOptions(["--store-connections", "0"], "serve"))).toContain(
      "--store-connections",
    );
    expect(usage(() => parseCommonOptions(["--store-connections", "500"], "serve"))).toBe(
      "--store-connections takes 1 to 100, got 500",
    );
    expect(usage(() => parseCommonOptions(["--agent-id", "Agent One"], "serve"))).toBe(
      '--agent-id takes lower-case letters, digits, _ and - (at most 64, for example "ci-runner"), got "Agent One"',
    );
    const dir = mkdtempSync(path.join(tmpdir(), "cli-store-keys-"));
    const clawtools = await loadClawtools();
    try {
      const good = path.join(dir, "good.json");
      writeFileSync(good, JSON.stringify({ storeConnections: 3, agentId: "ops" }));
      expect(loadConfig(good, clawtools)).toMatchObject({ storeConnections: 3, agentId: "ops" });
      const bad = path.join(dir, "bad.json");
      writeFileSync(bad, JSON.stringify({ storeConnections: 0 }));
      expect(usage(() => loadConfig(bad, clawtools))).toContain(`--config ${bad}: storeConnections`);
    } finally {
      await clawtools.tools.dispose();
    }
  });

  it("says where the state lives", () => {
    expect(describeState(undefined, "/var/lib/clawtools/ws")).toBe(
      "sessions, runs and cron jobs in embedded files under /var/lib/clawtools/ws",
    );
    const store = { location: "postgres://app@db:5432/clawtools#clawtools" } as Parameters<
      typeof describeState
    >[0];
    expect(describeState(store, "/x")).toBe(
      "sessions, runs and cron jobs in PostgreSQL store postgres://app@db:5432/clawtools#clawtools",
    );
  });
});
