/**
 * Every error class a package exports is branded, as core's ToolInputError is: a `Symbol.for`
 * marker as the class's own static `marker`, carried by every instance, and an exported
 * `is<Name>` guard that recognises an error from any copy of the package (the marker, not
 * `instanceof`). Every one extends core's `ClawtoolsError` and has a `code`. Walks each
 * publishable package's source entry points, as the MCP SDK's test walks its exports.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { publishablePackages, root } from "../src/workspace.js";

/**
 * Classes whose package another change is reworking right now (memory's backend seam); they get
 * their brand with it. The test fails once one is branded, so this list cannot go stale.
 */
const PENDING = new Set<string>([]);

type ErrorClass = (new (...args: unknown[]) => Error) & { marker?: unknown };

/** The source file of each export subpath (`@clawtools/source`), commands left out. */
function entryPoints(): Array<{ name: string; subpath: string; file: string }> {
  const out: Array<{ name: string; subpath: string; file: string }> = [];
  for (const { dir, manifest } of publishablePackages()) {
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = (target as Record<string, unknown> | null)?.["@clawtools/source"];
      // a bin entry runs the command when imported
      if (typeof source !== "string" || subpath === "./bin") continue;
      out.push({ name: manifest.name, subpath, file: path.join(root, dir, source) });
    }
  }
  return out;
}

const isErrorClass = (value: unknown): value is ErrorClass =>
  typeof value === "function" && value.prototype instanceof Error;

// constructors take different arguments; the first list a class accepts builds the sample
const ARGUMENT_LISTS: unknown[][] = [["m"], ["m", []], ["m", { content: [] }], [1, "m"], ["m", 1, "d"]];
function sample(ctor: ErrorClass): Error {
  for (const args of ARGUMENT_LISTS) {
    try {
      return Reflect.construct(ctor, args) as Error;
    } catch {
      // try the next shape
    }
  }
  throw new Error(`${ctor.name}: no sample argument list constructs it`);
}

interface FamilyMember extends Error {
  code: unknown;
}

describe("exported error classes are branded", async () => {
  // core's source, as the entry points below load it (one module, so one class)
  const core = (await import(pathToFileURL(path.join(root, "packages/core/src/index.ts")).href)) as {
    ClawtoolsError: ErrorClass;
    isClawtoolsError: (value: unknown) => boolean;
  };
  const { ClawtoolsError, isClawtoolsError } = core;
  const found: Array<{ where: string; exportName: string; ctor: ErrorClass; guard: unknown }> = [];
  for (const entry of entryPoints()) {
    const module = (await import(pathToFileURL(entry.file).href)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(module))
      if (isErrorClass(value))
        found.push({
          where: `${entry.name} ${entry.subpath}`,
          exportName,
          ctor: value,
          guard: module[`is${exportName}`],
        });
  }

  it("finds the error classes the packages export", () => {
    expect(found.map((f) => f.exportName)).toEqual(
      expect.arrayContaining(["ToolInputError", "HttpError", "SsrfBlockedError", "ModelCallError"]),
    );
  });

  const pending = (f: (typeof found)[number]) => PENDING.has(`${f.where.split(" ")[0]} ${f.exportName}`);

  it.each(found.filter(pending).map((f) => [`${f.where}: ${f.exportName}`, f] as const))(
    "%s is still unbranded (remove it from PENDING once branded)",
    (_label, f) => {
      expect(Object.hasOwn(f.ctor, "marker")).toBe(false);
    },
  );

  it.each(found.filter((f) => !pending(f)).map((f) => [`${f.where}: ${f.exportName}`, f] as const))(
    "%s",
    (_label, f) => {
      const { ctor, guard } = f;
      // an own brand (a subclass does not borrow its parent's), from the global symbol registry
      expect(Object.hasOwn(ctor, "marker"), `${f.exportName} has no static marker`).toBe(true);
      const marker = ctor.marker as symbol;
      expect(typeof marker).toBe("symbol");
      expect(Symbol.keyFor(marker), `${f.exportName}'s marker is not from Symbol.for`).toMatch(
        /^clawtools\./,
      );
      expect(typeof guard, `no is${f.exportName} exported beside it`).toBe("function");
      const check = guard as (value: unknown) => boolean;
      const instance = sample(ctor);
      expect((instance as unknown as Record<symbol, unknown>)[marker]).toBe(true);
      expect(check(instance)).toBe(true);
      // an error built by another copy of the package: same registry symbol, different class
      expect(check(Object.assign(new Error("m"), { [marker]: true }))).toBe(true);
      for (const other of [new Error("m"), null, undefined, "m", { message: "m" }])
        expect(check(other)).toBe(false);
    },
  );

  // one family: a host tells every clawtools error from others, and one from another by its code
  it.each(
    found
      .filter((f) => !pending(f) && f.ctor !== ClawtoolsError)
      .map((f) => [`${f.where}: ${f.exportName}`, f] as const),
  )("%s extends ClawtoolsError and has a code", (_label, f) => {
    expect(
      Object.prototype.isPrototypeOf.call(ClawtoolsError.prototype, f.ctor.prototype),
      `${f.exportName} does not extend ClawtoolsError`,
    ).toBe(true);
    const instance = sample(f.ctor) as FamilyMember;
    expect(isClawtoolsError(instance)).toBe(true);
    expect(instance instanceof ClawtoolsError).toBe(true);
    expect(["string", "number"]).toContain(typeof instance.code);
    // a sample built from placeholder arguments may carry a placeholder code (a Gateway's own)
    if (typeof instance.code === "string") expect(instance.code.length).toBeGreaterThan(0);
  });

  it("recognises a clawtools error from another copy of core by the family's brand", () => {
    const foreign = Object.assign(new Error("m"), { [Symbol.for("clawtools.error")]: true, code: "X" });
    expect(isClawtoolsError(foreign)).toBe(true);
    expect(foreign instanceof ClawtoolsError).toBe(true);
    expect(isClawtoolsError(new Error("m"))).toBe(false);
    expect(new Error("m") instanceof ClawtoolsError).toBe(false);
  });

  it("gives every class a brand of its own", () => {
    const markers = new Map<symbol, string>();
    for (const f of found.filter((f) => !pending(f))) {
      const marker = f.ctor.marker as symbol;
      const seen = markers.get(marker);
      // the same class re-exported from two entry points is one class
      if (seen && seen !== f.exportName) throw new Error(`${f.exportName} shares its brand with ${seen}`);
      markers.set(marker, f.exportName);
    }
  });
});
