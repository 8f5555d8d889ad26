import pkg from "../package.json" with { type: "json" };

/** The CLI's version, from its package.json. */
export const CLI_VERSION: string = pkg.version;
