/** AI SDK 7 declares Node >= 22: its runs of this package's tests happen there (CI's Node 24 pass) and skip on older Node. */
const [major = 0] = process.versions.node.split(".").map(Number);
export const NODE_TOO_OLD = major < 22;
export const SKIP_REASON = `ai 7 needs Node >= 22 (this is ${process.versions.node})`;
