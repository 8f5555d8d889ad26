import pkg from "../package.json" with { type: "json" };

/** This package's version, from its package.json (the server's default `serverInfo.version`). */
export const MCP_PACKAGE_VERSION: string = pkg.version;
