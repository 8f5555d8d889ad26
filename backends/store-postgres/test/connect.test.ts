import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { describeLocation, openPostgresStore } from "../src/index.js";

/** A loopback port nothing listens on (taken, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 1));
    });
  });
}

describe("openPostgresStore without a database", () => {
  it("a database that cannot be reached fails at once with an error naming the store, without the password", async () => {
    const port = await closedPort();
    const error = await openPostgresStore({
      connectionString: `postgres://app:s3cret@127.0.0.1:${port}/clawtools`,
    }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^PostgreSQL store postgres://app@127\\.0\\.0\\.1:${port}/clawtools#clawtools: cannot open it: .*ECONNREFUSED`,
      ),
    );
    expect((error as Error).message).not.toContain("s3cret");
  });

  it("a password given as a query parameter (pg reads it there too) is left out of the location", () => {
    expect(
      describeLocation(
        "postgres://app@db.internal:5432/jobs?password=s3cret&sslmode=disable",
        {},
        "clawtools",
      ),
    ).toBe("postgres://app@db.internal:5432/jobs?sslmode=disable#clawtools");
  });

  it("a host that takes the connection and never answers fails at the connect timeout, naming the store", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      await expect(
        openPostgresStore({
          connectionString: `postgres://app@127.0.0.1:${port}/jobs`,
          connectTimeoutMs: 200,
        }),
      ).rejects.toThrow(
        `PostgreSQL store postgres://app@127.0.0.1:${port}/jobs#clawtools: cannot open it: Connection terminated due to connection timeout`,
      );
    } finally {
      silent.close();
    }
  });

  it("refuses a schema name it cannot splice safely, and a call with nowhere to connect", async () => {
    await expect(
      openPostgresStore({ connectionString: "postgres://x@127.0.0.1:1/db", schema: "a; DROP TABLE x" }),
    ).rejects.toThrow('PostgreSQL store: schema name "a; DROP TABLE x" is not allowed');
    await expect(
      openPostgresStore({ connectionString: "postgres://x@127.0.0.1:1/db", schema: "pg_mine" }),
    ).rejects.toThrow("is not allowed");
    await expect(openPostgresStore({})).rejects.toThrow(
      "PostgreSQL store: give a connectionString (postgres://USER@HOST:PORT/DB) or a pool",
    );
  });
});
